/** Eleventy reads src/ and writes _site/, which `verified-reviews inject` then gives its JSON-LD. */
export default function (eleventyConfig) {
  eleventyConfig.setInputDirectory('src')
}
