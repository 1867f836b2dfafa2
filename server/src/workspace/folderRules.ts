// Which files of a folder Relata looks at. One implementation serves both the initial scan and
// the watcher, so the two can never disagree: .gitignore files (at any depth, with git's
// semantics via the `ignore` package) and the configured exclude patterns. (The data directory is
// never inside the folder: FolderIndex refuses that.) Ingest asks too, so a path reaching the
// index by any other way (one file re-indexed from the editor, a stored item the rules now
// exclude) is held to the same rules.

import ignore, { type Ignore } from 'ignore';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { leavesFolder } from './folderBoundary.ts';

/** Never worth indexing, whatever the folder's .gitignore says. Users can add more. */
export const DEFAULT_EXCLUDES: readonly string[] = ['.git/', 'node_modules/', '.DS_Store', 'Thumbs.db', '~$*'];

export class FolderRules {
  private readonly root: string;
  private readonly builtIn = ignore().add([...DEFAULT_EXCLUDES]);
  private readonly excludes: Ignore;
  private readonly gitignores = new Map<string, Ignore | null>();

  constructor(
    root: string,
    /** The configured exclude patterns, as given: what another thread builds the same rules from. */
    readonly excludePatterns: readonly string[],
  ) {
    this.root = path.resolve(root);
    this.excludes = ignore().add([...excludePatterns]);
  }

  /** Folder-relative path with forward slashes: the form items are stored under. */
  relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join('/');
  }

  /** True when the path (absolute) must not be indexed. Directories must be flagged as such. */
  isIgnored(absolute: string, isDirectory: boolean): boolean {
    return this.exclusionReason(this.relative(path.resolve(absolute)), isDirectory) !== null;
  }

  /**
   * Why a folder-relative path is not indexed, naming the rule (the built-in list, an exclude
   * pattern, or which .gitignore), or null when it is indexed. A path is excluded when it or any
   * folder above it matches, as git decides.
   */
  exclusionReason(relative: string, isDirectory = false): string | null {
    if (relative === '') return null;
    if (leavesFolder(relative)) return 'outside the folder';
    const probe = isDirectory ? `${relative}/` : relative;
    const builtIn = this.builtIn.test(probe);
    if (builtIn.ignored) return `excluded by Relata's built-in list (${quoted(builtIn.rule?.pattern)})`;
    const excluded = this.excludes.test(probe);
    if (excluded.ignored) return `excluded by the exclude pattern ${quoted(excluded.rule?.pattern)}`;
    return this.ignoredByGit(relative, isDirectory);
  }

  private ignoredByGit(relative: string, isDirectory: boolean): string | null {
    const parts = relative.split('/');
    // Check each ancestor directory's .gitignore against the path relative to that directory.
    for (let depth = 0; depth < parts.length; depth += 1) {
      const directory = parts.slice(0, depth).join('/');
      const rules = this.gitignoreOf(directory);
      if (!rules) continue;
      const rest = parts.slice(depth).join('/');
      const verdict = rules.test(isDirectory ? `${rest}/` : rest);
      if (verdict.ignored) return `excluded by ${directory ? `${directory}/` : ''}.gitignore (${quoted(verdict.rule?.pattern)})`;
    }
    return null;
  }

  private gitignoreOf(directory: string): Ignore | null {
    if (this.gitignores.has(directory)) return this.gitignores.get(directory)!;
    let rules: Ignore | null = null;
    try {
      rules = ignore().add(readFileSync(path.join(this.root, directory, '.gitignore'), 'utf8'));
    } catch {
      rules = null;
    }
    this.gitignores.set(directory, rules);
    return rules;
  }

  /** A full run starts: every .gitignore is read afresh, since any may have changed unseen (no watcher, or paused). */
  forgetGitignores(): void {
    this.gitignores.clear();
  }

  /** A .gitignore changed: forget what was read so the next check sees the new rules. */
  forgetGitignore(relativeDirectory: string): void {
    this.gitignores.delete(relativeDirectory);
  }
}

/** A pattern as written, quoted and with any control character escaped (a .gitignore is the folder's text). */
function quoted(pattern: string | undefined): string {
  return JSON.stringify(pattern ?? '');
}
