import { keptReview } from '@verified-reviews/core/sync'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { productReview } from '../../../test/fixtures/reviews.ts'
import { ReviewItem } from './index.ts'

// Every optional part on: translations into every language, a translated reply, syndication, badges.
const full = productReview({
  incentivization: 'gifted',
  syndicated_review: true,
  syndicated_review_source: 'Acme Germany',
  syndicated_review_source_url: 'https://acme.example.de/p/1',
  translated_review: { en: 'Very good product.', de: 'Sehr gutes Produkt.', it: 'Ottimo prodotto.' },
})

describe('ReviewItem from the replica’s kept review', () => {
  it.each(['en', 'fr', 'de'])('renders the same markup as from the API’s review in %s', (locale) => {
    const kept = keptReview(full, ['en', 'fr', 'de'])
    const html = renderToString(<ReviewItem review={kept} locale={locale} />)
    expect(html).toBe(renderToString(<ReviewItem review={full} locale={locale} />))
  })

  it('shows the translation it kept (a kept review without it would render the original)', () => {
    const html = renderToString(<ReviewItem review={keptReview(full, ['en'])} locale="en" />)
    expect(html).toContain('Very good product.')
  })
})
