// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { HOSTILE_STRINGS, HOSTILE_URLS } from '../../../test/fixtures/hostile.ts'
import { brandRating, productReview, productSummary } from '../../../test/fixtures/reviews.ts'
import {
  BrandRating,
  BrandReviewsView,
  ProductReviewsView,
  RatingSummary,
  ReviewItem,
  ReviewList,
  ReviewSummary,
  ShopRating,
  StarRating,
} from './index.ts'

afterEach(cleanup)

/** What goes into a string field, by the field's path. */
type Fill = (field: string) => string

/** A product review whose every string field comes from `fill`, with every part that shows one. */
function reviewWith(fill: Fill) {
  return productReview({
    review_id: fill('review_id'),
    author_firstname: fill('author_firstname'),
    author_lastname: fill('author_lastname'),
    is_personal_data_disclosed: false,
    locale: fill('locale'),
    review_date: fill('review_date'),
    publish_date: fill('publish_date'),
    order_date: fill('order_date'),
    review_content: fill('review_content'),
    order_reference: fill('order_reference'),
    product_name: fill('product_name'),
    incentivization: 'gifted',
    is_verified: true,
    translated_review: { en: fill('translated_review.en') },
    moderations: [
      {
        comment: fill('moderations.comment'),
        date: fill('moderations.date'),
        origin: fill('moderations.origin'),
        origin_type: fill('moderations.origin_type'),
        translated_comment: { en: fill('moderations.translated_comment.en') },
      },
    ],
    syndicated_review: true,
    syndicated_review_source: fill('syndicated_review_source'),
    syndicated_review_source_url: fill('syndicated_review_source_url'),
    medias: [
      {
        type: 'IMAGE',
        small: fill('medias.small'),
        medium: fill('medias.medium'),
        large: fill('medias.large'),
      },
    ],
    extras: {
      [fill('extras.code')]: {
        display_name: fill('extras.I1.display_name'),
        label: fill('extras.I1.label'),
        type: 'I1',
        value: 4,
      },
      text: {
        display_name: fill('extras.S.display_name'),
        label: fill('extras.S.label'),
        type: 'S',
        value: fill('extras.S.value'),
      },
    },
  })
}

interface Subject {
  name: string
  element: (fill: Fill) => ReactElement
  /** Text each element shows for `fill`, by CSS selector. */
  shows: (fill: Fill) => Array<[selector: string, text: string]>
}

const summary = productSummary()

const SUBJECTS: Subject[] = [
  {
    name: 'StarRating',
    element: (fill) => <StarRating value={3.5} count={2} locale={fill('locale prop')} />,
    shows: () => [],
  },
  {
    name: 'RatingSummary',
    element: (fill) => (
      <RatingSummary
        rating={summary.ratings}
        criteria={[
          {
            type: 'rate',
            display_name: fill('criteria.display_name'),
            label: fill('criteria.label'),
            rate: { average: 4, count: 3 },
          },
          { label: fill('criteria.flat.label'), average: 3, count: 2 },
        ]}
        rateHref={(rate) => fill(`rateHref ${rate}`)}
        locale={fill('locale prop')}
      />
    ),
    shows: (fill) => [
      ['.vr-rating-summary__criteria dt:nth-of-type(1)', fill('criteria.display_name')],
      ['.vr-rating-summary__criteria dt:nth-of-type(2)', fill('criteria.flat.label')],
    ],
  },
  {
    name: 'ReviewItem',
    element: (fill) => <ReviewItem review={reviewWith(fill)} locale={fill('locale prop')} />,
    shows: (fill) => [
      ['.vr-review > :first-child', fill('author_firstname').trim()],
      ['.vr-review__original > p', fill('review_content')],
      ['.vr-review__content', fill('translated_review.en')],
      ['.vr-reply__original > p', fill('moderations.comment')],
      ['.vr-reply__content', fill('moderations.translated_comment.en')],
      // The criteria in the API's order: the rated one, then the text one.
      ['.vr-review__criteria dt:nth-of-type(1)', fill('extras.I1.display_name')],
      ['.vr-review__criteria dt:nth-of-type(2)', fill('extras.S.display_name')],
      ['.vr-review__criteria dd:nth-of-type(1)', '4.0 out of 5'],
      ['.vr-review__criteria dd:nth-of-type(2)', fill('extras.S.value')],
      ['.vr-review__source', `Syndicated from ${fill('syndicated_review_source').trim()}`],
    ],
  },
  {
    name: 'ReviewList',
    element: (fill) => (
      <ReviewList
        reviews={[reviewWith(fill)]}
        previousHref={fill('previousHref')}
        nextHref={fill('nextHref')}
        locale={fill('locale prop')}
      />
    ),
    shows: (fill) => [
      ['.vr-review > :first-child', fill('author_firstname').trim()],
      ['.vr-review__original > p', fill('review_content')],
    ],
  },
  {
    name: 'ReviewSummary',
    element: (fill) => (
      <ReviewSummary
        summary={{
          content: fill('review_summary.content'),
          last_updated_at: fill('review_summary.last_updated_at'),
        }}
        locale={fill('locale prop')}
      />
    ),
    shows: (fill) => [['.vr-review-summary__content', fill('review_summary.content')]],
  },
  {
    name: 'BrandRating',
    element: (fill) => (
      <BrandRating
        rating={brandRating({
          shop_key: fill('shop_key'),
          website_id: fill('website_id'),
          oldest_review_publish_date: fill('oldest_review_publish_date'),
        })}
        locale={fill('locale prop')}
      />
    ),
    shows: () => [],
  },
  {
    name: 'ShopRating',
    element: (fill) => (
      <ShopRating
        rating={brandRating({
          shop_key: fill('shop_key'),
          oldest_review_publish_date: fill('oldest_review_publish_date'),
        })}
        name={fill('name')}
        locale={fill('locale prop')}
      />
    ),
    shows: (fill) => [['.vr-shop-rating__heading', `Reviews of ${fill('name').trim()}`]],
  },
  ...(['', '/api/reviews'] as const).map(
    (endpoint): Subject => ({
      name: endpoint ? 'ProductReviewsView with the island' : 'ProductReviewsView',
      element: (fill) => (
        <ProductReviewsView
          productId={fill('productId')}
          summary={{
            ...summary,
            review_summary: {
              content: fill('review_summary.content'),
              last_updated_at: '2025-03-01T00:00:00Z',
            },
          }}
          reviews={[reviewWith(fill)]}
          previousCursor={fill('previousCursor')}
          nextCursor={fill('nextCursor')}
          searchParams={{ q: fill('searchParams.q'), vr_cursor: fill('searchParams.vr_cursor') }}
          endpoint={endpoint || undefined}
          jsonLd={false}
          locale={fill('locale prop')}
        />
      ),
      shows: (fill) => [
        ['.vr-review > :first-child', fill('author_firstname').trim()],
        ['.vr-review__original > p', fill('review_content')],
        ['.vr-review-summary__content', fill('review_summary.content')],
      ],
    }),
  ),
  {
    name: 'BrandReviewsView',
    element: (fill) => (
      <BrandReviewsView
        rating={brandRating({ shop_key: fill('shop_key') })}
        shopKey={fill('shop_key')}
        shopName={fill('name')}
        reviews={[{ ...reviewWith(fill), shop_key: fill('shop_key'), website_id: fill('website_id') }]}
        nextCursor={fill('nextCursor')}
        searchParams={{ q: fill('searchParams.q') }}
        locale={fill('locale prop')}
      />
    ),
    shows: (fill) => [
      ['.vr-shop-rating__heading', `Reviews of ${fill('name').trim()}`],
      ['.vr-review__original > p', fill('review_content')],
    ],
  },
]

/** Tag names with their attribute names, in document order: what an injection would change. */
function shape(root: ParentNode): string[] {
  return [...root.querySelectorAll('*')].map(
    (el) =>
      `${el.localName}[${[...el.attributes]
        .map((a) => a.name)
        .sort()
        .join(' ')}]`,
  )
}

/** Problems no rendering may have: event handler attributes and URLs that run code. */
function dangers(root: ParentNode): string[] {
  const found: string[] = []
  for (const el of root.querySelectorAll('*')) {
    for (const { name, value } of el.attributes) {
      if (/^on/i.test(name)) found.push(`${el.localName} ${name}`)
      // Browsers drop tabs, newlines and leading control characters before reading a scheme.
      const url = [...value].filter((char) => (char.codePointAt(0) ?? 0) > 0x20).join('')
      if (
        ['href', 'src', 'srcset', 'action', 'formaction', 'xlink:href'].includes(name) &&
        /^(javascript|data|vbscript):/i.test(url)
      ) {
        found.push(`${el.localName} ${name}=${value}`)
      }
    }
    if (
      ['script', 'iframe', 'object', 'embed', 'style', 'link', 'meta', 'base', 'form'].includes(el.localName)
    ) {
      found.push(el.localName)
    }
  }
  return found
}

/** The server's HTML read back by an HTML parser, as a browser reads the first response. */
function parseServerHtml(element: ReactElement): DocumentFragment {
  const template = document.createElement('template')
  template.innerHTML = renderToString(element)
  return template.content
}

const plain: Fill = (field) => `plain ${field}`

describe.each(SUBJECTS)('$name with hostile content', (subject) => {
  for (const { name, value } of HOSTILE_STRINGS) {
    // Translations differ from their original, so that both are shown; the page's own hrefs are
    // tested with the hostile URLs below.
    const hostile: Fill = (field) =>
      field.includes('Href') ? plain(field) : field.includes('translated') ? `${value} ${field}` : value

    it(`shows a ${name} as the same text when rendered`, () => {
      const { container } = render(subject.element(hostile))
      for (const [selector, text] of subject.shows(hostile)) {
        expect(container.querySelector(selector)?.textContent, selector).toBe(text)
      }
    })

    it(`injects no element or attribute from a ${name} when rendered`, () => {
      const benign = shape(render(subject.element(plain)).container)
      cleanup()
      const { container } = render(subject.element(hostile))
      expect(shape(container)).toEqual(benign)
      expect(dangers(container)).toEqual([])
    })

    it(`shows a ${name} as the same text in server HTML`, () => {
      const fragment = parseServerHtml(subject.element(hostile))
      for (const [selector, text] of subject.shows(hostile)) {
        expect(fragment.querySelector(selector)?.textContent, selector).toBe(text)
      }
    })

    it(`injects no element or attribute from a ${name} in server HTML`, () => {
      const fragment = parseServerHtml(subject.element(hostile))
      expect(shape(fragment)).toEqual(shape(parseServerHtml(subject.element(plain))))
      expect(dangers(fragment)).toEqual([])
    })
  }
})

describe('hostile URLs', () => {
  const isUrl = (field: string) => /url|medias|Href/.test(field)
  const webBaseline: Fill = (field) => (isUrl(field) ? 'https://example.test/ok' : plain(field))
  const droppedBaseline: Fill = (field) => (isUrl(field) ? '' : plain(field))

  for (const { name, value } of HOSTILE_URLS) {
    const hostile: Fill = (field) => (isUrl(field) ? value : plain(field))
    // A web URL that only looks hostile stays a link; any other URL is dropped, as an empty one is.
    const baseline = /^https:/.test(value) ? webBaseline : droppedBaseline

    for (const subject of SUBJECTS.filter((s) =>
      ['ReviewItem', 'ReviewList', 'RatingSummary'].includes(s.name),
    )) {
      it(`keeps a ${name} from running or injecting in ${subject.name}`, () => {
        const fragment = parseServerHtml(subject.element(hostile))
        expect(dangers(fragment)).toEqual([])
        expect(shape(fragment)).toEqual(shape(parseServerHtml(subject.element(baseline))))
      })
    }
  }

  it('links a web source address with its quotes percent-encoded', () => {
    const fill: Fill = (field) =>
      field === 'syndicated_review_source_url' ? 'https://example.test/"><b>x' : plain(field)
    const fragment = parseServerHtml(<ReviewItem review={reviewWith(fill)} />)
    expect(fragment.querySelector('.vr-review__source a')?.getAttribute('href')).toBe(
      'https://example.test/%22%3E%3Cb%3Ex',
    )
  })
})
