// The one place that says where the site is published. The package READMEs link to pages under this
// address (npm shows a README without the repository, so its links are absolute).
export const site = 'https://verified-reviews.github.io'
export const base = '/verified-reviews'
