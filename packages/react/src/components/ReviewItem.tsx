import type { BrandReview, Media, Moderation, ProductReview, ReviewExtra } from '@verified-reviews/core'
import { reviewAuthorName } from '@verified-reviews/core/jsonld'
import { Heading, type HeadingLevel } from '../internal/Heading.tsx'
import { getText, type Text } from '../internal/i18n.ts'
import { richMessage } from '../internal/rich.tsx'
import { TranslatedText } from '../internal/TranslatedText.tsx'
import { webUrl } from '../internal/url.ts'
import { StarRating } from './StarRating.tsx'

/**
 * The fields of a review that {@link ReviewItem} shows. A product review (`GET /products/reviews`)
 * and a brand review (`GET /brands/reviews`) both fit as they are; the fields only product reviews
 * carry are optional.
 */
export type ReviewData = Pick<
  BrandReview,
  | 'review_id'
  | 'author_firstname'
  | 'author_lastname'
  | 'is_personal_data_disclosed'
  | 'locale'
  | 'review_date'
  | 'review_content'
  | 'review_rate'
  | 'is_verified'
  | 'incentivization'
> &
  Partial<Pick<BrandReview, 'extras'>> &
  Partial<
    Pick<
      ProductReview,
      | 'medias'
      | 'syndicated_review'
      | 'syndicated_review_source'
      | 'syndicated_review_source_url'
      | 'translated_review'
    >
  > & {
    /** Merchant replies; those of product reviews carry `translated_comment`. */
    moderations?: ReadonlyArray<Moderation>
  }

/** Pixel widths assumed for the `small`, `medium` and `large` variants of review images (`srcset`). */
export interface MediaWidths {
  small: number
  medium: number
  large: number
}

/** Widths assumed when none are given: the API does not state the variants' sizes. */
export const DEFAULT_MEDIA_WIDTHS: Readonly<MediaWidths> = Object.freeze({
  small: 200,
  medium: 600,
  large: 1200,
})

/** Props of {@link ReviewItem}. */
export interface ReviewItemProps {
  /** The review as the API sends it. */
  review: ReviewData
  /**
   * Level of the heading holding the author's name.
   * @default 3
   */
  headingLevel?: HeadingLevel
  /**
   * Widths of the image variants, for `srcset`.
   * @default { small: 200, medium: 600, large: 1200 }
   */
  mediaWidths?: MediaWidths
  /**
   * Edge of the square image thumbnails in CSS pixels (`width`/`height` of each `<img>`).
   * @default 96
   */
  thumbnailSize?: number
  /**
   * Language of every text and date, one of bg cs de el en es fr it nl pl pt sk tr; other values
   * are resolved to the closest supported language. A review written in another language is shown
   * in this one when the API has a translation.
   * @default 'en'
   */
  locale?: string
  /** Extra class names, added after `vr-review`. */
  className?: string
}

function DateText({ iso, text, className }: { iso: string; text: Text; className: string }) {
  const shown = text.date(iso)
  if (shown === undefined) return null
  return (
    <time className={className} dateTime={iso}>
      {shown}
    </time>
  )
}

function Criteria({ extras, text }: { extras: Readonly<Record<string, ReviewExtra>>; text: Text }) {
  const rows = Object.entries(extras).filter(
    ([, extra]) =>
      extra !== null &&
      typeof extra === 'object' &&
      ((extra.type === 'I1' && Number.isFinite(extra.value)) ||
        (extra.type === 'S' && typeof extra.value === 'string' && extra.value.trim() !== '')) &&
      (extra.display_name || extra.label),
  )
  if (rows.length === 0) return null
  return (
    <dl className="vr-review__criteria">
      {rows.map(([code, extra]) => (
        <div
          key={code}
          className={`vr-review__criterion vr-review__criterion--${extra.type === 'I1' ? 'rate' : 'text'}`}
        >
          <dt className="vr-review__criterion-name">{extra.display_name || extra.label}</dt>
          <dd className="vr-review__criterion-value">
            {extra.type === 'I1' ? (
              <StarRating value={extra.value} size={14} locale={text.locale} />
            ) : (
              extra.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}

function Medias(props: {
  medias: ReadonlyArray<Media>
  author: string
  text: Text
  widths: MediaWidths
  size: number
}) {
  const { medias, author, text, widths, size } = props
  const images = medias
    .filter((media) => typeof media?.type === 'string' && media.type.toUpperCase() === 'IMAGE')
    .map((media) => ({
      small: webUrl(media.small),
      medium: webUrl(media.medium),
      large: webUrl(media.large),
    }))
    .filter((urls) => urls.small !== undefined || urls.medium !== undefined || urls.large !== undefined)
  if (images.length === 0) return null
  return (
    <ul className="vr-review__medias">
      {images.map((urls, i) => {
        const srcSet = (['small', 'medium', 'large'] as const)
          .filter((variant) => urls[variant] !== undefined)
          .map((variant) => `${urls[variant]} ${widths[variant]}w`)
          .join(', ')
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: images keep the API's order and carry no id
          <li key={i} className="vr-review__media">
            <a className="vr-review__media-link" href={urls.large ?? urls.medium ?? urls.small}>
              <img
                className="vr-review__media-image"
                src={urls.small ?? urls.medium ?? urls.large}
                srcSet={srcSet}
                sizes={`${size}px`}
                width={size}
                height={size}
                loading="lazy"
                decoding="async"
                alt={text.t('photoFromReviewBy', { author })}
              />
            </a>
          </li>
        )
      })}
    </ul>
  )
}

function Source({ review, text }: { review: ReviewData; text: Text }) {
  if (review.syndicated_review !== true) return null
  const name = (review.syndicated_review_source ?? '').trim()
  const href = webUrl(review.syndicated_review_source_url)
  if (name === '' && href === undefined) {
    return <p className="vr-review__source">{text.t('syndicatedFromAnotherSite')}</p>
  }
  const label = name === '' ? new URL(href as string).host : name
  return (
    <p className="vr-review__source">
      {richMessage(text, 'syndicatedFrom', {
        source:
          href === undefined ? (
            label
          ) : (
            <a className="vr-review__source-link" href={href} rel="nofollow noopener">
              {label}
            </a>
          ),
      })}
    </p>
  )
}

function Replies(props: { moderations: ReadonlyArray<Moderation>; sourceLocale: string; text: Text }) {
  const { moderations, sourceLocale, text } = props
  const shown = moderations.filter(
    (reply) => typeof reply?.comment === 'string' && reply.comment.trim() !== '',
  )
  if (shown.length === 0) return null
  return (
    <div className="vr-review__replies">
      {shown.map((reply, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: replies keep the API's order and carry no id
        <div key={i} className="vr-reply">
          <p className="vr-reply__heading">
            <span className="vr-reply__author">{text.t('merchantResponse')}</span>{' '}
            <DateText iso={reply.date} text={text} className="vr-reply__date" />
          </p>
          <TranslatedText
            block="vr-reply"
            original={reply.comment}
            translations={reply.translated_comment}
            sourceLocale={sourceLocale}
            text={text}
          />
        </div>
      ))}
    </div>
  )
}

/**
 * One review: author (as the API allows), stars, date, text (translated for the page when the
 * API has it, with the original in `<details>`), verified badge, incentive disclosure, criteria,
 * images, syndication source and merchant replies. Renders on the server with no client JavaScript.
 *
 * Class names: `vr-review`, `__header`, `__author`, `__rate`, `__date`, `__badges`, `__verified`,
 * `__verified-explanation`, `__disclosure` (`--gifted`, `--compensated`), `__translation-note`,
 * `__content` (`--original`), `__original`, `__criteria`, `__criterion` (`--rate`, `--text`),
 * `__criterion-name`, `__criterion-value`, `__medias`, `__media`, `__media-link`, `__media-image`,
 * `__source`, `__source-link`, `__replies`; replies: `vr-reply`, `__heading`, `__author`, `__date`,
 * `__translation-note`, `__content`, `__original`.
 */
export function ReviewItem({
  review,
  headingLevel = 3,
  mediaWidths = DEFAULT_MEDIA_WIDTHS,
  thumbnailSize = 96,
  locale,
  className,
}: ReviewItemProps) {
  const text = getText(locale)
  // The same name as the review's JSON-LD author, so that markup matches what the page shows.
  const author = reviewAuthorName(review) || text.t('anonymousAuthor')
  const disclosure =
    review.incentivization === 'gifted' || review.incentivization === 'compensated'
      ? review.incentivization
      : undefined
  return (
    <article className={className ? `vr-review ${className}` : 'vr-review'} data-rate={review.review_rate}>
      <header className="vr-review__header">
        <Heading level={headingLevel} className="vr-review__author">
          {author}
        </Heading>
        <StarRating value={review.review_rate} size={16} locale={text.locale} className="vr-review__rate" />
        <DateText iso={review.review_date} text={text} className="vr-review__date" />
      </header>
      {(review.is_verified === true || disclosure !== undefined) && (
        <div className="vr-review__badges">
          {review.is_verified === true && (
            <details className="vr-review__verified">
              <summary>{text.t('verifiedPurchase')}</summary>
              <p className="vr-review__verified-explanation">{text.t('verifiedPurchaseExplanation')}</p>
            </details>
          )}
          {disclosure !== undefined && (
            <p className={`vr-review__disclosure vr-review__disclosure--${disclosure}`}>
              {text.t(disclosure === 'gifted' ? 'giftedDisclosure' : 'compensatedDisclosure')}
            </p>
          )}
        </div>
      )}
      <TranslatedText
        block="vr-review"
        original={review.review_content ?? ''}
        translations={review.translated_review}
        sourceLocale={review.locale}
        text={text}
      />
      {review.extras && <Criteria extras={review.extras} text={text} />}
      {review.medias && (
        <Medias
          medias={review.medias}
          author={author}
          text={text}
          widths={mediaWidths}
          size={thumbnailSize}
        />
      )}
      <Source review={review} text={text} />
      {review.moderations && (
        <Replies moderations={review.moderations} sourceLocale={review.locale} text={text} />
      )}
    </article>
  )
}
