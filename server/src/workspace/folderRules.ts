// Which files of a folder Relata looks at. One implementation serves both the initial scan and
// the watcher, so the two can never disagree: .gitignore files (at any depth, with git's
// semantics via the `ignore` package) and the configured exclude patterns. (The data directory is
// never inside the folder: FolderIndex refuses that.)

import ignore, { type Ignore } from 'ignore';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { leavesFolder } from './folderBoundary.ts';

/** Never worth indexing, whatever the folder's .gitignore says. Users can add more. */
export const DEFAULT_EXCLUDES: readonly string[] = ['.git/', 'node_modules/', '.DS_Store', 'Thumbs.db', '~$*'];

export class FolderRules {
  private readonly root: string;
  private readonly excludes: Ignore;
  private readonly gitignores = new Map<string, Ignore | null>();

  constructor(root: string, excludePatterns: readonly string[]) {
    this.root = path.resolve(root);
    this.excludes = ignore().add([...DEFAULT_EXCLUDES, ...excludePatterns]);
  }

  /** Folder-relative path with forward slashes: the form items are stored under. */
  relative(absolute: string): string {
    return path.relative(this.root, absolute).split(path.sep).join('/');
  }

  /** True when the path (absolute) must not be indexed. Directories must be flagged as such. */
  isIgnored(absolute: string, isDirectory: boolean): boolean {
    const relative = this.relative(path.resolve(absolute));
    if (relative === '') return false;
    if (leavesFolder(relative)) return true;
    const probe = isDirectory ? `${relative}/` : relative;
    if (this.excludes.ignores(probe)) return true;
    return this.ignoredByGit(relative, isDirectory);
  }

  private ignoredByGit(relative: string, isDirectory: boolean): boolean {
    const parts = relative.split('/');
    // Check each ancestor directory's .gitignore against the path relative to that directory.
    for (let depth = 0; depth < parts.length; depth += 1) {
      const directory = parts.slice(0, depth).join('/');
      const rules = this.gitignoreOf(directory);
      if (!rules) continue;
      const rest = parts.slice(depth).join('/');
      if (rules.ignores(isDirectory ? `${rest}/` : rest)) return true;
    }
    return false;
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

  /** A .gitignore changed: forget what was read so the next check sees the new rules. */
  forgetGitignore(relativeDirectory: string): void {
    this.gitignores.delete(relativeDirectory);
  }
}
