// Resolved through the `browser` export condition: the injector reads and writes files and holds API credentials.
throw new Error(
  '@verified-reviews/inject is server-only: it reads and writes files on disk and holds API credentials. ' +
    'Run it after the build (the `verified-reviews inject` command, the Astro integration, a build script), never in the browser.',
)
