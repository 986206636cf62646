/**
 * What a walk that reads every page of a list asks of the list call (a symbol key of its request
 * options, as a full sync sends it): each page's next page is asked for as soon as the page's `Link`
 * header names it, while its body is still read and parsed, rather than once the page is handed over.
 * Only once the walk has asked for that page itself, so that at most one page is ever fetched ahead of
 * what the walk asked for.
 */
export const READ_AHEAD: unique symbol = Symbol('verified-reviews.readAhead')
