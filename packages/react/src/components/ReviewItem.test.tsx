// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { HOSTILE_URLS } from '../../../../test/fixtures/hostile.ts'
import { brandReview, productReview } from '../../../../test/fixtures/reviews.ts'
import { ReviewItem } from './ReviewItem.tsx'

afterEach(cleanup)

describe('ReviewItem author', () => {
  it('shows the first name and the initial of the last name when the author disclosed them', () => {
    render(<ReviewItem review={productReview({ is_personal_data_disclosed: true })} />)
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Marie D.')
  })

  it('shows the first name alone when the author did not disclose personal data', () => {
    render(<ReviewItem review={productReview({ is_personal_data_disclosed: false })} />)
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Marie')
    expect(document.body.textContent).not.toContain('Dupont')
    expect(document.body.textContent).not.toContain('D.')
  })

  it('keeps a last name that starts with an emoji sequence whole in the initial', () => {
    render(<ReviewItem review={productReview({ author_lastname: '👩‍👩‍👧 Smith' })} />)
    expect(screen.getByRole('heading').textContent).toBe('Marie 👩‍👩‍👧.')
  })

  it('calls an author without a first name an anonymous customer', () => {
    render(<ReviewItem review={productReview({ author_firstname: '  ', author_lastname: 'Dupont' })} />)
    expect(screen.getByRole('heading').textContent).toBe('Anonymous customer')
  })

  it('puts the author heading at the level asked for', () => {
    render(<ReviewItem review={productReview()} headingLevel={4} />)
    expect(screen.getByRole('heading', { level: 4 })).toBeTruthy()
  })
})

describe('ReviewItem rating and date', () => {
  it('shows the rate as stars, a child of the review', () => {
    const { container } = render(<ReviewItem review={productReview({ review_rate: 2 })} />)
    expect(screen.getByRole('img', { name: '2.0 out of 5' }).parentElement).toBe(
      container.querySelector('.vr-review'),
    )
  })

  it('shows the review date in a time element with the machine-readable date', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    const time = container.querySelector('.vr-review > time')
    expect(time?.getAttribute('datetime')).toBe('2025-03-04T10:20:30Z')
    expect(time?.textContent).toBe('March 4, 2025')
  })

  it('formats the date in the page locale', () => {
    const { container } = render(<ReviewItem review={productReview()} locale="de" />)
    expect(container.querySelector('.vr-review > time')?.textContent).toBe('4. März 2025')
  })

  it('leaves out a date the API sent unreadable', () => {
    const { container } = render(<ReviewItem review={productReview({ review_date: 'not a date' })} />)
    expect(container.querySelector('.vr-review > time')).toBeNull()
  })
})

describe('ReviewItem content and translation', () => {
  it('shows the original text when the review is in the page language', () => {
    const { container } = render(
      <ReviewItem review={productReview({ locale: 'en_GB', review_content: 'Great.' })} />,
    )
    expect(container.querySelector('.vr-review__content')?.textContent).toBe('Great.')
    // In the page's language, as the component's other texts: no lang of its own.
    expect(container.querySelector('.vr-review__content')?.hasAttribute('lang')).toBe(false)
    expect(container.querySelector('details.vr-review__original')).toBeNull()
    expect(screen.queryByText(/Translated/)).toBeNull()
  })

  it('shows the translation for the page language, marked with the language it was translated from', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    // The translation is in the page's language, as the component's other texts: no lang of its own.
    expect(screen.getByText('Very good product, delivered fast.').hasAttribute('lang')).toBe(false)
    expect(container.querySelector('.vr-review__translation-note')?.textContent).toBe(
      'Translated from French',
    )
  })

  it('keeps the original one click away in a details element, in its own language', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    const details = container.querySelector('details.vr-review__original')
    expect(details?.querySelector('summary')?.textContent).toBe('Show original')
    const original = within(details as HTMLElement).getByText('Très bon produit, livré vite.')
    expect(original.getAttribute('lang')).toBe('fr')
    expect(details?.hasAttribute('open')).toBe(false)
  })

  it('shows the original when there is no translation for the page language', () => {
    render(<ReviewItem review={productReview()} locale="it" />)
    expect(screen.getByText('Très bon produit, livré vite.').getAttribute('lang')).toBe('fr')
    expect(document.querySelector('details.vr-review__original')).toBeNull()
  })

  it('shows a translation without naming the language when the review locale is unknown', () => {
    const { container } = render(<ReviewItem review={productReview({ locale: '' })} />)
    expect(container.querySelector('.vr-review__translation-note')?.textContent).toBe('Translated')
    expect(screen.getByText('Very good product, delivered fast.')).toBeTruthy()
  })

  it('renders no content paragraph for a review without text', () => {
    const { container } = render(
      <ReviewItem review={productReview({ review_content: '', translated_review: {} })} />,
    )
    expect(container.querySelector('.vr-review__content')).toBeNull()
  })
})

describe('ReviewItem disclosures', () => {
  it('shows a verified badge that explains how the review was collected', () => {
    const { container } = render(<ReviewItem review={productReview({ is_verified: true })} />)
    const badge = container.querySelector('details.vr-review__verified')
    expect(badge?.querySelector('summary')?.textContent).toBe('Verified purchase')
    // The explanation is the badge's text after its summary, shown when it opens.
    expect(badge?.textContent).toBe('Verified purchaseWritten by a customer after a confirmed order.')
  })

  it('shows no verified badge for an unverified review', () => {
    render(<ReviewItem review={productReview({ is_verified: false })} />)
    expect(screen.queryByText('Verified purchase')).toBeNull()
  })

  it('discloses a gifted product', () => {
    const { container } = render(<ReviewItem review={productReview({ incentivization: 'gifted' })} />)
    expect(container.querySelector('.vr-review__disclosure--gifted')?.textContent).toMatch(/free of charge/)
  })

  it('discloses a compensated review', () => {
    const { container } = render(<ReviewItem review={productReview({ incentivization: 'compensated' })} />)
    expect(container.querySelector('.vr-review__disclosure--compensated')?.textContent).toMatch(
      /compensated for this review/,
    )
  })

  it('shows no disclosure for a spontaneous review', () => {
    const { container } = render(<ReviewItem review={productReview({ incentivization: 'spontaneous' })} />)
    expect(container.querySelector('.vr-review__disclosure')).toBeNull()
  })
})

describe('ReviewItem merchant replies', () => {
  it('shows the reply translated for the page, with the original in details', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    const reply = container.querySelector('.vr-reply') as HTMLElement
    expect(within(reply).getByText('Response from the merchant')).toBeTruthy()
    expect(within(reply).getByText('Thank you for your review!')).toBeTruthy()
    const details = reply.querySelector('details.vr-reply__original')
    expect(details?.textContent).toContain('Merci pour votre avis !')
  })

  it('dates the reply with a time element', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    expect(container.querySelector('.vr-reply time')?.getAttribute('datetime')).toBe('2025-03-06T09:00:00Z')
  })

  it('shows the original comment of a brand review reply, which has no translations', () => {
    const review = productReview({
      locale: 'en',
      moderations: [
        { comment: 'Thanks!', date: '2025-03-06T09:00:00Z', origin: 'Acme', origin_type: 'moderator' },
      ],
    })
    const { container } = render(<ReviewItem review={review} />)
    expect(container.querySelector('.vr-reply__content')?.textContent).toBe('Thanks!')
  })

  it('shows every reply in order', () => {
    const review = productReview({
      locale: 'en',
      moderations: [
        { comment: 'First', date: '2025-03-06T09:00:00Z', origin: 'Acme', origin_type: 'moderator' },
        { comment: 'Second', date: '2025-03-07T09:00:00Z', origin: 'Acme', origin_type: 'moderator' },
      ],
    })
    const { container } = render(<ReviewItem review={review} />)
    const texts = [...container.querySelectorAll('.vr-reply__content')].map((p) => p.textContent)
    expect(texts).toEqual(['First', 'Second'])
  })

  it('shows no reply block without moderations', () => {
    const { container } = render(<ReviewItem review={productReview({ moderations: [] })} />)
    expect(container.querySelector('.vr-review__replies')).toBeNull()
  })
})

describe('ReviewItem syndication', () => {
  const syndicated = {
    syndicated_review: true,
    syndicated_review_source: 'Acme Germany',
    syndicated_review_source_url: 'https://acme.example.de/p/1',
  }

  it('names the source of a syndicated review with a nofollow link', () => {
    render(<ReviewItem review={productReview(syndicated)} />)
    const link = screen.getByRole('link', { name: 'Acme Germany' })
    expect(link.getAttribute('href')).toBe('https://acme.example.de/p/1')
    expect(link.getAttribute('rel')).toBe('nofollow')
    expect(link.parentElement?.textContent).toBe('Syndicated from Acme Germany')
  })

  it('says a syndicated review without a source came from another website', () => {
    render(<ReviewItem review={productReview({ syndicated_review: true })} />)
    expect(screen.getByText('Syndicated from another website')).toBeTruthy()
  })

  it('names the source by its host when only the address is known', () => {
    render(<ReviewItem review={productReview({ ...syndicated, syndicated_review_source: '' })} />)
    expect(screen.getByRole('link', { name: 'acme.example.de' })).toBeTruthy()
  })

  it('shows no source for a review that is not syndicated', () => {
    const { container } = render(
      <ReviewItem review={productReview({ ...syndicated, syndicated_review: false })} />,
    )
    expect(container.querySelector('.vr-review__source')).toBeNull()
  })

  for (const { name, value } of HOSTILE_URLS.filter((url) => !url.value.startsWith('https:'))) {
    it(`never turns a ${name} source into a link`, () => {
      render(<ReviewItem review={productReview({ ...syndicated, syndicated_review_source_url: value })} />)
      expect(screen.queryByRole('link', { name: 'Acme Germany' })).toBeNull()
      expect(screen.getByText('Syndicated from Acme Germany')).toBeTruthy()
    })
  }
})

describe('ReviewItem criteria', () => {
  it('shows a rated criterion as its rating in words, with no star drawing', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    const list = container.querySelector('dl.vr-review__criteria') as HTMLElement
    const name = within(list).getByText('Quality')
    expect(name.tagName).toBe('DT')
    const value = name.nextElementSibling as HTMLElement
    expect(value.tagName).toBe('DD')
    expect(value.innerHTML).toBe('5.0 out of 5')
  })

  it("says a rated criterion's rating in the page's language, to its tenth", () => {
    const extras = { fit: { display_name: 'Passform', label: 'fit', type: 'I1' as const, value: 3.75 } }
    const { container } = render(<ReviewItem review={productReview({ extras })} locale="de" />)
    expect(container.querySelector('.vr-review__criteria dd')?.textContent).toBe('3,8 von 5')
  })

  it('shows a text criterion as its text', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    const name = within(container.querySelector('dl.vr-review__criteria') as HTMLElement).getByText(
      'Used for',
    )
    expect(name.tagName).toBe('DT')
    expect(name.nextElementSibling?.tagName).toBe('DD')
    expect(name.nextElementSibling?.textContent).toBe('Green tea')
  })

  it('leaves out criteria of a type it does not know', () => {
    const extras = { odd: { display_name: 'Odd', label: 'odd', type: 'X9', value: 3 } }
    const { container } = render(
      // @ts-expect-error: a type the spec does not show, as the API might send it
      <ReviewItem review={productReview({ extras })} />,
    )
    expect(container.querySelector('.vr-review__criteria')).toBeNull()
  })
})

describe('ReviewItem images', () => {
  it('shows each image lazily with the size variants a thumbnail can use in srcset and fixed dimensions', () => {
    render(<ReviewItem review={productReview()} />)
    const img = screen.getByRole('img', { name: 'Photo from the review by Marie D.' })
    expect(img.getAttribute('loading')).toBe('lazy')
    expect(img.getAttribute('decoding')).toBe('async')
    expect(img.getAttribute('src')).toBe('https://media.example.test/1-small.jpg')
    // 96 px at up to 4 device pixels per CSS pixel: the 1200 px variant is never picked.
    expect(img.getAttribute('srcset')).toBe(
      'https://media.example.test/1-small.jpg 200w, https://media.example.test/1-medium.jpg 600w',
    )
    expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['96', '96'])
  })

  it('offers the large variant in srcset to a thumbnail large enough to use it', () => {
    render(<ReviewItem review={productReview()} thumbnailSize={200} />)
    expect(screen.getByRole('img', { name: /^Photo from/ }).getAttribute('srcset')).toContain(
      '-large.jpg 1200w',
    )
  })

  it('links each image to its large variant', () => {
    render(<ReviewItem review={productReview()} />)
    const img = screen.getByRole('img', { name: /^Photo from/ })
    expect(img.closest('a')?.getAttribute('href')).toBe('https://media.example.test/1-large.jpg')
  })

  it('lists the images', () => {
    const { container } = render(<ReviewItem review={productReview()} />)
    const list = container.querySelector('ul.vr-review__medias') as HTMLElement
    expect(within(list).getAllByRole('listitem')).toHaveLength(1)
  })

  it('uses the widths given for srcset', () => {
    render(<ReviewItem review={productReview()} mediaWidths={{ small: 100, medium: 300, large: 900 }} />)
    expect(screen.getByRole('img', { name: /^Photo from/ }).getAttribute('srcset')).toContain(
      '-small.jpg 100w',
    )
  })

  it('drops image variants whose address is not a web URL', () => {
    const medias = [
      { type: 'IMAGE', small: 'javascript:alert(1)', medium: 'https://m.example.test/2.jpg', large: '' },
    ]
    render(<ReviewItem review={productReview({ medias })} />)
    const img = screen.getByRole('img', { name: /^Photo from/ })
    expect(img.getAttribute('src')).toBe('https://m.example.test/2.jpg')
    expect(img.getAttribute('srcset')).toBe('https://m.example.test/2.jpg 600w')
    expect(img.closest('a')?.getAttribute('href')).toBe('https://m.example.test/2.jpg')
  })

  it('leaves out media that are not images', () => {
    const medias = [{ type: 'VIDEO', small: 'https://m.example.test/v', medium: '', large: '' }]
    const { container } = render(<ReviewItem review={productReview({ medias })} />)
    expect(container.querySelector('.vr-review__medias')).toBeNull()
  })
})

describe('ReviewItem with a brand review', () => {
  it('shows a brand review as the API sends it, with its reply', () => {
    const { container } = render(<ReviewItem review={brandReview()} />)
    expect(screen.getByRole('heading').textContent).toBe('Jan N.')
    expect(container.querySelector('.vr-review__content')?.textContent).toBe(
      'Friendly staff and quick pickup.',
    )
    expect(container.querySelector('.vr-reply__content')?.textContent).toBe('Thank you, Jan!')
  })
})
