// Resolved through the `browser` export condition: the data layer holds credentials and must stay on the server.
throw new Error(
  '@verified-reviews/core is server-only: it holds API credentials and must not be bundled for the browser. ' +
    'Import it from server code only (React Server Components, route handlers, Astro frontmatter, build scripts).',
)
