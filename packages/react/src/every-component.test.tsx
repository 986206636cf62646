// @vitest-environment jsdom

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cleanup, render } from '@testing-library/react'
import axe from 'axe-core'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { brandRating, brandReview, productReview, productSummary } from '../../../test/fixtures/reviews.ts'
import { canonical } from '../../../test/react/render.ts'
import {
  BrandRating,
  BrandReviewsView,
  ProductReviewsView,
  RatingBadge,
  RatingSummary,
  ReviewItem,
  ReviewList,
  ReviewSummary,
  ShopRating,
  StarRating,
} from './index.ts'

afterEach(cleanup)

const LOCALES = ['bg', 'cs', 'de', 'el', 'en', 'es', 'fr', 'it', 'nl', 'pl', 'pt', 'sk', 'tr'] as const

const summary = productSummary()
// Every optional part on: translation, reply, badge, disclosure, syndication, criteria, image.
const fullReview = productReview({
  incentivization: 'gifted',
  syndicated_review: true,
  syndicated_review_source: 'Acme Germany',
  syndicated_review_source_url: 'https://acme.example.de/p/1',
})
const reviews = [fullReview, productReview({ review_id: 'b', locale: 'en', incentivization: 'compensated' })]

/** Each component with every part it can show, in the given locale. */
function everyComponent(locale: string): Array<[string, ReactElement]> {
  return [
    ['StarRating', <StarRating key="s" value={4.6} count={128} locale={locale} />],
    [
      'RatingSummary',
      <RatingSummary
        key="r"
        rating={summary.ratings}
        criteria={summary.extras}
        rateHref={(rate) => `?rate=${rate}`}
        currentRate={5}
        locale={locale}
      />,
    ],
    [
      'RatingSummary without reviews',
      <RatingSummary key="r0" rating={{ ...summary.ratings, count_total: 0 }} locale={locale} />,
    ],
    ['ReviewItem', <ReviewItem key="i" review={fullReview} locale={locale} />],
    [
      'ReviewList',
      <ReviewList key="l" reviews={reviews} previousHref="?c=p" nextHref="?c=n" locale={locale} />,
    ],
    ['ReviewList without reviews', <ReviewList key="l0" reviews={[]} locale={locale} />],
    ['ReviewSummary', <ReviewSummary key="a" summary={summary.review_summary} locale={locale} />],
    ['BrandRating', <BrandRating key="b" rating={brandRating()} locale={locale} />],
    [
      'BrandRating without reviews',
      <BrandRating key="b0" rating={brandRating({ count_total_since_creation: 0 })} locale={locale} />,
    ],
    [
      'ShopRating without reviews',
      <ShopRating
        key="h0"
        rating={brandRating({
          shop_key: 'lyon',
          count_total_since_creation: 0,
          oldest_review_publish_date: null,
        })}
        locale={locale}
      />,
    ],
    [
      'ShopRating',
      <ShopRating
        key="h"
        rating={brandRating({
          shop_key: 'lyon',
          one_year: { average: 0, count_5: 0, count_4: 0, count_3: 0, count_2: 0, count_1: 0 },
        })}
        name="Lyon"
        locale={locale}
      />,
    ],
    ['RatingBadge', <RatingBadge key="g" rating={summary.ratings} locale={locale} />],
    ['RatingBadge without reviews', <RatingBadge key="g0" rating={undefined} locale={locale} />],
    [
      'ProductReviewsView',
      <ProductReviewsView
        key="p"
        productId="SKU-1"
        summary={summary}
        reviews={reviews}
        previousCursor="p1"
        nextCursor="n1"
        searchParams={{ vr_rate: '4' }}
        jsonLd={false}
        locale={locale}
      />,
    ],
    [
      'ProductReviewsView with the island',
      <ProductReviewsView
        key="pi"
        productId="SKU-1"
        summary={summary}
        reviews={reviews}
        nextCursor="n1"
        endpoint="/api/reviews"
        jsonLd={false}
        locale={locale}
      />,
    ],
    [
      'ProductReviewsView without reviews',
      <ProductReviewsView
        key="p0"
        productId="SKU-1"
        summary={undefined}
        reviews={[]}
        jsonLd={false}
        locale={locale}
      />,
    ],
    [
      'BrandReviewsView',
      <BrandReviewsView
        key="br"
        rating={brandRating()}
        reviews={[brandReview()]}
        nextCursor="n1"
        locale={locale}
      />,
    ],
  ]
}

/** Every text a user or assistive technology meets: text nodes, and names and alternatives in attributes. */
function userVisibleTexts(container: HTMLElement): string[] {
  const texts: string[] = []
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) texts.push(node.nodeValue ?? '')
  for (const el of container.querySelectorAll('[aria-label], [alt], [title]')) {
    for (const name of ['aria-label', 'alt', 'title']) texts.push(el.getAttribute(name) ?? '')
  }
  return texts
}

function textsOf(element: ReactElement): string[] {
  const { container, unmount } = render(element)
  const texts = userVisibleTexts(container)
  unmount()
  return texts
}

// A message that is missing comes out as its key, a dotted identifier such as `review.verified`.
const RAW_KEY = /^\s*[a-zA-Z]+(?:\.[a-zA-Z0-9]+)+\s*$/

describe('every component in every locale', () => {
  for (const locale of LOCALES) {
    for (const [name, element] of everyComponent(locale)) {
      it(`renders ${name} in ${locale} without a raw message key or placeholder`, () => {
        const { container } = render(element)
        const texts = userVisibleTexts(container)
        expect(texts.filter((text) => RAW_KEY.test(text))).toEqual([])
        expect(texts.filter((text) => /[{}]/.test(text))).toEqual([])
      })
    }
  }
})

describe('every component in every other locale than English', () => {
  const english = new Map(everyComponent('en'))
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    for (const [name, element] of everyComponent(locale)) {
      it(`renders ${name} in ${locale}, not in English`, () => {
        expect(textsOf(element)).not.toEqual(textsOf(english.get(name) as ReactElement))
      })
    }
  }
})

describe('accessibility', () => {
  it('has an axe run that finds violations where there are some', async () => {
    const { container } = render(
      <ul>
        <div>not a list item</div>
      </ul>,
    )
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } })
    expect(results.violations.map((v) => v.id)).toContain('list')
  })

  for (const [name, element] of everyComponent('en')) {
    it(`finds no axe violations in ${name}`, async () => {
      const { container } = render(element)
      // jsdom lays nothing out, so axe cannot compute colour contrast: that one rule is off.
      const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } })
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([])
    })
  }
})

describe('server rendering', () => {
  for (const [name, element] of everyComponent('fr')) {
    it(`renders ${name} to an HTML string with no script`, () => {
      const html = renderToString(element)
      expect(html.length).toBeGreaterThan(0)
      expect(html).not.toMatch(/<script/i)
    })
  }

  it('renders the same markup on the server as in the browser', () => {
    const element = <ReviewList reviews={reviews} nextHref="?c=n" locale="de" />
    const server = document.createElement('div')
    server.innerHTML = renderToString(element)
    const { container } = render(element)
    expect(canonical(server)).toBe(canonical(container))
  })
})

describe('the stylesheet', () => {
  it('styles only class names the components render', () => {
    // `@verified-reviews/react/styles.css` imports the one stylesheet, which core holds.
    const css = readFileSync(
      createRequire(import.meta.url).resolve('@verified-reviews/core/styles.css'),
      'utf8',
    )
    const styled = new Set(css.match(/\.vr-[\w-]+/g))
    const rendered = new Set<string>()
    for (const [, element] of everyComponent('en')) {
      const { container, unmount } = render(element)
      for (const el of container.querySelectorAll('[class]')) {
        for (const name of el.getAttribute('class')?.split(/\s+/) ?? []) rendered.add(`.${name}`)
      }
      unmount()
    }
    const themes = ['.vr-light', '.vr-dark']
    expect([...styled].filter((name) => !rendered.has(name) && !themes.includes(name))).toEqual([])
  })
})
