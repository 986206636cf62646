import type { TextFormatter } from '@verified-reviews/core/i18n'
import { type ReviewView, viewHref } from '@verified-reviews/core/internal'
import type { ReactElement } from 'react'
import { ReviewControls } from './ReviewControls.tsx'
import { ReviewPager } from './ReviewPager.tsx'

/**
 * Reviews with their sort and rate links and the links to the previous and next pages, all plain
 * links carrying `vr_*` params in the page URL: the list without the island.
 */
export function ReviewLinks(props: {
  text: TextFormatter
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
