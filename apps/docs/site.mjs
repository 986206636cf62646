// The one place that names the project's repository on GitHub. Everything else derives from it: the
// docs address (the repository's GitHub Pages, where .github/workflows/release.yml deploys the site),
// each public package's `repository`, `homepage` and `bugs` fields, and the README links
// (test/packaging/release.test.ts checks all of them against this file).
export const repository = { owner: 'verified-reviews', name: 'verified-reviews' }
export const repositoryUrl = `https://github.com/${repository.owner}/${repository.name}`
/** The branch the release workflow publishes from, which README links to the sources name. */
export const branch = 'main'

export const site = `https://${repository.owner}.github.io`
export const base = `/${repository.name}`

/**
 * Whether the site serves pages at `site` + `base` yet. Until it does, a README link into the docs
 * points to the page's source under `docsSources` on GitHub (npm shows a README without the repository,
 * so its links are absolute); once the release workflow has deployed the site, set this to `true` and
 * run `node scripts/readme-docs-links.ts --to-site`.
 */
export const deployed = false
/** Where the pages of the site are written, from the repository's root. */
export const docsSources = 'apps/docs/src/content/docs/'
