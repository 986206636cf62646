import { existsSync } from 'node:fs'

// The data files read the credentials from the environment; `verified-reviews inject` reads these
// same .env files, ranked as Next.js ranks them (the first found wins, the environment over them all).
for (const file of ['.env.production.local', '.env.local', '.env.production', '.env']) {
  if (existsSync(file)) process.loadEnvFile(file)
}

/** Eleventy reads src/ and writes _site/, which `verified-reviews inject` then gives its JSON-LD. */
export default function (eleventyConfig) {
  eleventyConfig.setInputDirectory('src')
}
