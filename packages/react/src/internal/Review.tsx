import type { Media } from '@verified-reviews/core'
import type { TextFormatter } from '@verified-reviews/core/i18n'
import type { ReviewData } from '@verified-reviews/core/internal'
import {
  DEFAULT_THUMBNAIL_SIZE,
  type HeadingLevel,
  type MediaWidths,
  type ReviewReply,
  reviewAuthor,
  reviewCriteria,
  reviewDisclosure,
  reviewImages,
  reviewReplies,
  reviewSource,
} from '@verified-reviews/core/internal'
import { Fragment, type ReactElement } from 'react'
import { Heading } from './Heading.tsx'
import { richMessage } from './rich.tsx'
import { Stars } from './Stars.tsx'
import { TranslatedText } from './TranslatedText.tsx'

function DateText({ iso, text }: { iso: string; text: TextFormatter }) {
  const shown = text.date(iso)
  if (shown === undefined) return null
  return <time dateTime={iso}>{shown}</time>
}

function Criteria({ extras, text }: { extras: ReviewData['extras']; text: TextFormatter }) {
  const criteria = reviewCriteria(extras, text)
  if (criteria.length === 0) return null
  return (
    <dl className="vr-review__criteria">
      {criteria.map((criterion) => (
        <Fragment key={criterion.code}>
          <dt>{criterion.name}</dt>
          <dd>{criterion.value}</dd>
        </Fragment>
      ))}
    </dl>
  )
}

function Medias(props: {
  medias: ReadonlyArray<Media>
  author: string
  text: TextFormatter
  widths: MediaWidths
  size: number
}) {
  const { medias, author, text, widths, size } = props
  const images = reviewImages(medias, widths, size)
  if (images.length === 0) return null
  return (
    <ul className="vr-review__medias">
      {images.map((image, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: images keep the API's order and carry no id
        <li key={i}>
          <a href={image.href}>
            <img
              src={image.src}
              srcSet={image.srcset}
              sizes={`${size}px`}
              width={size}
              height={size}
              loading="lazy"
              decoding="async"
              alt={text.t('photoFromReviewBy', { author })}
            />
          </a>
        </li>
      ))}
    </ul>
  )
}

function Source({ review, text }: { review: ReviewData; text: TextFormatter }) {
  const source = reviewSource(review)
  if (source === undefined) return null
  const { label, href } = source
  if (label === '') return <p className="vr-review__source">{text.t('syndicatedFromAnotherSite')}</p>
  return (
    <p className="vr-review__source">
      {richMessage(text, 'syndicatedFrom', {
        source:
          href === undefined ? (
            label
          ) : (
            <a href={href} rel="nofollow">
              {label}
            </a>
          ),
      })}
    </p>
  )
}

function Replies(props: {
  moderations: ReadonlyArray<ReviewReply>
  sourceLocale: string
  text: TextFormatter
}) {
  const { moderations, sourceLocale, text } = props
  return reviewReplies(moderations).map((reply, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: replies keep the API's order and carry no id
    <div key={i} className="vr-reply">
      <p className="vr-reply__heading">
        {`${text.t('merchantResponse')} `}
        <DateText iso={reply.date} text={text} />
      </p>
      <TranslatedText
        block="vr-reply"
        original={reply.comment}
        translations={reply.translated_comment}
        sourceLocale={sourceLocale}
        text={text}
      />
    </div>
  ))
}

/**
 * `ReviewItem` with its texts given: the server passes the whole catalogue's, the island only the
 * messages a review needs, and both render the same markup.
 */
export function Review(props: {
  review: ReviewData
  headingLevel: HeadingLevel
  mediaWidths: MediaWidths
  thumbnailSize: number
  text: TextFormatter
  className?: string | undefined
}) {
  const { review, headingLevel, mediaWidths, thumbnailSize, text, className } = props
  const author = reviewAuthor(review, text)
  const disclosure = reviewDisclosure(review.incentivization)
  return (
    <article className={className ? `vr-review ${className}` : 'vr-review'} data-rate={review.review_rate}>
      <Heading level={headingLevel}>{author}</Heading>
      <Stars value={review.review_rate} text={text} />
      <DateText iso={review.review_date} text={text} />
      {review.is_verified === true && (
        <details className="vr-review__verified">
          <summary>{text.t('verifiedPurchase')}</summary>
          {text.t('verifiedPurchaseExplanation')}
        </details>
      )}
      {disclosure !== undefined && (
        <p className={`vr-review__disclosure vr-review__disclosure--${disclosure}`}>
          {text.t(disclosure === 'gifted' ? 'giftedDisclosure' : 'compensatedDisclosure')}
        </p>
      )}
      <TranslatedText
        block="vr-review"
        original={review.review_content ?? ''}
        translations={review.translated_review}
        sourceLocale={review.locale}
        text={text}
      />
      <Criteria extras={review.extras} text={text} />
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

/**
 * The `<li>` of each review in a review list, the same from the server's `ReviewList` and from the
 * island; `offset` keeps the keys of reviews without an id apart across pages.
 */
export function reviewListItems(
  reviews: ReadonlyArray<ReviewData>,
  options: { text: TextFormatter; headingLevel: HeadingLevel; mediaWidths: MediaWidths; offset?: number },
): ReactElement[] {
  const { text, headingLevel, mediaWidths, offset = 0 } = options
  return reviews.map((review, i) => (
    <li key={review.review_id || `#${offset + i}`}>
      <Review
        review={review}
        headingLevel={headingLevel}
        mediaWidths={mediaWidths}
        thumbnailSize={DEFAULT_THUMBNAIL_SIZE}
        text={text}
      />
    </li>
  ))
}
