'use client'

import type { ReviewRate } from '@verified-reviews/core'
import type { ReviewsEndpointBody } from '@verified-reviews/core/endpoint'
import type { Locale, Messages, TextFormatter } from '@verified-reviews/core/i18n'
import {
  createTextFormatter,
  DEFAULT_MEDIA_WIDTHS,
  endpointUrl,
  type HeadingLevel,
  type MediaWidths,
  type ReviewSort,
  type ReviewView,
  sameRates,
  viewHref,
  viewQuery,
} from '@verified-reviews/core/internal'
import { type MouseEvent, type ReactElement, useEffect, useMemo, useRef, useState } from 'react'
import useSWRInfinite from 'swr/infinite'
import { navigate } from './internal/navigate.ts'
import { reviewListItems } from './internal/Review.tsx'
import { ReviewControls } from './internal/ReviewControls.tsx'
import { ReviewPager } from './internal/ReviewPager.tsx'

/**
 * One page as the endpoint answers it: the fields of each review the island draws (`PublicReview`, an
 * allowlist), and the signed cursor of the next page.
 */
export type MoreReviewsPage = ReviewsEndpointBody

/** Props of {@link MoreReviews}. `ProductReviews` fills them in; they are plain data, made on the server. */
export interface MoreReviewsProps {
  /**
   * Address of the endpoint that serves further pages (the framework package provides it):
   * `GET {endpoint}?product_variation_id&limit&cursor&sort&rate&locale` answering
   * `{ data: PublicReview[], nextCursor: string | null }` (`ReviewsEndpointBody`), the cursors signed.
   */
  endpoint: string
  /** The product's `product_variation_id`. */
  productId: string
  /** Reviews per page, the same as the server's first page (the API binds cursors to it). */
  limit: number
  /** The page's language, resolved. */
  locale: Locale
  /** The messages of `locale` the island shows (the server passes them, so no catalogue reaches the browser). */
  messages: Partial<Messages>
  /** The order the server rendered. */
  sort: ReviewSort
  /** The rates the server kept; empty for every rate. */
  rates: readonly ReviewRate[]
  /** The signed cursor of the page the server rendered, if it is not the first. */
  cursor?: string | undefined
  /**
   * The cursor of the page after the server's, or `null` on the last page, signed with the key the
   * endpoint checks (`cursorSigner` of `@verified-reviews/core/endpoint`), for `productId`, `sort`,
   * `rates` and `limit`.
   */
  nextCursor: string | null
  /** Href of the page before the server's, when there is one. */
  previousHref?: string | undefined
  /** The page's search params other than `vr_cursor`, `vr_sort` and `vr_rate`, as a query string. */
  query: string
  /** Level of each review's author heading. */
  headingLevel: HeadingLevel
  /** Widths of the image variants, for `srcset`. @default { small: 200, medium: 600, large: 1200 } */
  mediaWidths?: MediaWidths
  /** The `<li>` of each review the server rendered, shown until the reader picks another order or rate. */
  children?: ReactElement[]
}

function isPage(value: unknown): value is MoreReviewsPage {
  if (typeof value !== 'object' || value === null) return false
  const { data, nextCursor } = value as Partial<MoreReviewsPage>
  return (
    Array.isArray(data) &&
    data.every((review) => typeof review === 'object' && review !== null) &&
    (nextCursor === null || typeof nextCursor === 'string')
  )
}

async function fetchPage(url: string): Promise<MoreReviewsPage> {
  const response = await fetch(url, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`The reviews endpoint answered ${response.status}`)
  const body: unknown = await response.json()
  if (!isPage(body)) throw new Error('The reviews endpoint answered something other than a page of reviews')
  return body
}

/** A plain left click, which the island handles; others (new tab, new window) stay the browser's. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}

function replaceUrl(view: ReviewView): void {
  const { pathname, search, hash } = window.location
  const query = viewQuery(new URLSearchParams(search).toString(), view)
  window.history.replaceState(window.history.state, '', `${pathname}${query ? `?${query}` : ''}${hash}`)
}

interface PagesProps extends MoreReviewsProps {
  view: ReviewView
  /** Whether `view` is the one the server rendered, whose first page is `children`. */
  initial: boolean
  text: TextFormatter
  /** Where to go without the island should a fetch fail: the link the reader followed. */
  fallbackHref: string
}

/** The pages of one view; remounted when the view changes, so SWR starts over. */
function Pages(props: PagesProps) {
  const { view, initial, text, endpoint, productId, limit, locale, query } = props
  const request = (cursor: string | undefined) =>
    endpointUrl(endpoint, { productId, limit, cursor, sort: view.sort, rates: view.rates, locale })
  const { data, size, setSize, error } = useSWRInfinite<MoreReviewsPage>(
    (index: number, previous: MoreReviewsPage | null) => {
      if (index === 0) {
        if (!initial) return request(undefined)
        return props.nextCursor === null ? null : request(props.nextCursor)
      }
      return previous?.nextCursor ? request(previous.nextCursor) : null
    },
    fetchPage,
    {
      // The server rendered the first page: nothing is fetched until the reader asks for more.
      initialSize: initial ? 0 : 1,
      revalidateFirstPage: false,
      revalidateOnFocus: false,
      revalidateOnReconnect: false,
      revalidateIfStale: false,
      shouldRetryOnError: false,
    },
  )
  const pages = data ?? []
  const loading = error === undefined && size > pages.length
  const fallback = useRef(props.fallbackHref)

  // Cursor of each loaded page, so the address names the last one the reader reached.
  const firstCursor = initial ? (props.nextCursor ?? undefined) : undefined
  const lastCursor =
    pages.length === 0 ? undefined : pages.length === 1 ? firstCursor : pages[pages.length - 2]?.nextCursor
  const nextCursor =
    pages.length === 0 ? (initial ? props.nextCursor : null) : (pages.at(-1)?.nextCursor ?? null)
  const nextHref = nextCursor === null ? undefined : viewHref(query, { ...view, cursor: nextCursor })

  const loadedPages = pages.length
  useEffect(() => {
    if (loadedPages > 0) replaceUrl({ ...view, cursor: lastCursor ?? undefined })
  }, [loadedPages, lastCursor, view])

  useEffect(() => {
    if (error !== undefined) navigate(fallback.current)
  }, [error])

  const offset = initial ? (props.children?.length ?? 0) : 0
  const fetched = reviewListItems(
    pages.flatMap((page) => page.data),
    {
      text,
      headingLevel: props.headingLevel,
      mediaWidths: props.mediaWidths ?? DEFAULT_MEDIA_WIDTHS,
      offset,
    },
  )
  const items = initial ? [...(props.children ?? []), ...fetched] : fetched
  return (
    <ReviewPager
      text={text}
      items={items}
      filtered={view.rates.length > 0}
      loading={loading}
      live
      previousHref={initial ? props.previousHref : undefined}
      nextHref={nextHref}
      nextLabel="more"
      onNext={(event) => {
        if (!isPlainClick(event) || nextHref === undefined) return
        event.preventDefault()
        if (loading) return
        fallback.current = nextHref
        void setSize(size + 1)
      }}
    />
  )
}

/**
 * The "More reviews" island: the only client component of the package (`@verified-reviews/react/client`).
 * It shows the server's first page (`children`), the sort and rate links and a "More reviews" link.
 * Without JavaScript these are plain links to other views of the page. With it, "More reviews" fetches
 * the next page from `endpoint` with SWR (`useSWRInfinite`) and appends it to the same list, a sort or
 * rate link replaces the list with the first page of that view, and the address bar follows
 * (`history.replaceState` with `vr_cursor`, `vr_sort`, `vr_rate`), so a reload or a shared link shows
 * where the reader is. Should a fetch fail, the browser follows the link instead.
 *
 * Reviews are drawn with the same markup as `ReviewItem`, from the messages the server passes, so the
 * message catalogue stays on the server.
 */
export function MoreReviews(props: MoreReviewsProps) {
  const text = useMemo(
    () => createTextFormatter(props.locale, props.messages),
    [props.locale, props.messages],
  )
  const [choice, setChoice] = useState<{ view: ReviewView; href: string }>()
  const view: ReviewView = choice?.view ?? { sort: props.sort, rates: props.rates }
  const initial = view.sort === props.sort && sameRates(view.rates, props.rates)
  const hrefOf = (target: ReviewView) => viewHref(props.query, { sort: target.sort, rates: target.rates })
  return (
    <div className="vr-more-reviews">
      <ReviewControls
        text={text}
        view={view}
        href={hrefOf}
        onChoose={(event, target) => {
          if (!isPlainClick(event)) return
          event.preventDefault()
          if (target.sort === view.sort && sameRates(target.rates, view.rates)) return
          setChoice({ view: target, href: hrefOf(target) })
          const backToServer = target.sort === props.sort && sameRates(target.rates, props.rates)
          if (backToServer) replaceUrl({ ...target, cursor: props.cursor })
        }}
      />
      <Pages
        key={`${view.sort}|${view.rates.join(',')}`}
        {...props}
        view={view}
        initial={initial}
        text={text}
        fallbackHref={choice?.href ?? ''}
      />
    </div>
  )
}
