// What the watch thread says of its watcher's errors. On Linux every watched directory (and with
// chokidar, every file) holds an inotify watch; past the system's limit each further one fails
// with ENOSPC, which in a folder of 100,000 files would be tens of thousands of identical lines in
// the log. The first says what
// happened and how to fix it; the rest are counted, not said.

/** A function that turns each of chokidar's errors into the line to report, or null to stay quiet. */
export function watchErrorReporter(): (error: unknown) => string | null {
  let limitReported = false;
  return (error) => {
    const message = error instanceof Error ? error.message : String(error);
    // chokidar's errors carry the code; @parcel/watcher's only the system's words for it.
    if ((error as NodeJS.ErrnoException | null)?.code !== 'ENOSPC' && !message.includes('No space left on device')) return message;
    if (limitReported) return null;
    limitReported = true;
    return (
      `${message}: the system's limit on file watches (fs.inotify.max_user_watches) is reached, so files beyond it ` +
      'are not watched and their changes are seen only when the folder is indexed again; raise it (for example ' +
      '`sudo sysctl fs.inotify.max_user_watches=524288`) and reopen the folder'
    );
  };
}
