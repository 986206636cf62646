import Link from 'next/link'
import { LOCALES, type Locale, text } from '@/lib/i18n'

/** The shop's header: navigation, and links to this page in the other languages. */
export function SiteHeader({ locale, path }: { locale: Locale; path: string }) {
  return (
    <header className="site-header">
      <p className="site-name">
        <Link href={`/${locale}`}>{text(locale, 'shop')}</Link>
      </p>
      <nav aria-label={text(locale, 'shop')}>
        <ul>
          <li>
            <Link href={`/${locale}`}>{text(locale, 'home')}</Link>
          </li>
          <li>
            <Link href={`/${locale}/brand`}>{text(locale, 'brand')}</Link>
          </li>
          <li>
            <Link href={`/${locale}/checkout`}>{text(locale, 'checkout')}</Link>
          </li>
        </ul>
      </nav>
      <nav aria-label={text(locale, 'languages')} className="locale-switch">
        <ul>
          {LOCALES.map((other) => (
            <li key={other}>
              <a
                href={`/${other}${path}`}
                hrefLang={other}
                lang={other}
                aria-current={other === locale ? 'page' : undefined}
              >
                {text(other, 'language')}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  )
}
