// Resolved through the `browser` export condition: the shared state holds API tokens and must stay on the server.
throw new Error(
  '@verified-reviews/redis is server-only: it holds API tokens and talks to Redis. ' +
    'Import it from server code only (route handlers, Server Components, Astro frontmatter, build scripts).',
)
