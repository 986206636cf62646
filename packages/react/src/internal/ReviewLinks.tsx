import type { ReactElement } from 'react'
import { ReviewControls } from './ReviewControls.tsx'
import { ReviewPager } from './ReviewPager.tsx'
import { type ReviewView, viewHref } from './review-query.ts'
import type { Text } from './text.ts'

/**
 * Reviews with their sort and rate links and the links to the previous and next pages, all plain
 * links carrying `vr_*` params in the page URL: the list without the island.
 */
export function ReviewLinks(props: {
  text: Text
  items: ReactElement[]
  view: ReviewView
  /** The page's other search params. */
  query: string
  previousHref: string | undefined
  nextHref: string | undefined
}) {
  const { text, items, view, query } = props
  return (
    <>
      <ReviewControls
        text={text}
        view={view}
        href={(target) => viewHref(query, { sort: target.sort, rates: target.rates })}
      />
      <ReviewPager
        text={text}
        items={items}
        filtered={view.rates.length > 0}
        previousHref={props.previousHref}
        nextHref={props.nextHref}
      />
    </>
  )
}

/** The hrefs of the pages before and after the one shown, when there are such pages. */
export function pageHrefs(
  query: string,
  view: ReviewView,
  cursors: { previousCursor?: string | null | undefined; nextCursor?: string | null | undefined },
): { previousHref: string | undefined; nextHref: string | undefined } {
  const { previousCursor, nextCursor } = cursors
  return {
    previousHref: previousCursor ? viewHref(query, { ...view, cursor: previousCursor }) : undefined,
    nextHref: nextCursor ? viewHref(query, { ...view, cursor: nextCursor }) : undefined,
  }
}
