import type { TextFormatter } from '@verified-reviews/core/i18n'
import { type ReviewControlOption, type ReviewView, reviewControls } from '@verified-reviews/core/internal'
import type { MouseEvent } from 'react'

/** Props of {@link ReviewControls}. */
export interface ReviewControlsProps {
  text: TextFormatter
  /** The order and rates shown now; their links are marked `aria-current`. */
  view: ReviewView
  /** The href of another view of the page (first page, so no cursor). */
  href: (view: ReviewView) => string
  /** Click on a link; the island takes over from the plain link here. */
  onChoose?: ((event: MouseEvent<HTMLAnchorElement>, view: ReviewView) => void) | undefined
}

function Choices(props: {
  block: 'sort' | 'filter'
  label: string
  options: ReviewControlOption[]
  href: ReviewControlsProps['href']
  onChoose: ReviewControlsProps['onChoose']
}) {
  const { block, label, options, href, onChoose } = props
  return (
    <nav className={`vr-review-controls__${block}`} aria-label={label}>
      <span aria-hidden="true">{label}</span>
      <ul>
        {options.map((option) => (
          <li key={option.key}>
            <a
              href={href(option.view)}
              aria-current={option.current ? 'true' : undefined}
              onClick={onChoose && ((event) => onChoose(event, option.view))}
            >
              {option.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * Links that sort the reviews and filter them by rate, each to the first page of that view: plain
 * links without JavaScript, taken over by the island with it.
 *
 * Class names: `vr-review-controls`, `__sort` and `__filter` (each a `<nav>` of a visible label, a
 * `<span>`, and a `<ul>` of links, `aria-current` on the current one).
 */
export function ReviewControls({ text, view, href, onChoose }: ReviewControlsProps) {
  return (
    <div className="vr-review-controls">
      {reviewControls(view, text).map(({ block, label, options }) => (
        <Choices key={block} block={block} label={label} options={options} href={href} onChoose={onChoose} />
      ))}
    </div>
  )
}
