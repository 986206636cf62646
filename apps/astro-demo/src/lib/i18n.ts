/** The languages of the demo's own texts; the review components speak 13. */
export const LOCALES = ['en', 'fr', 'de'] as const
export type Locale = (typeof LOCALES)[number]

function isLocale(value: string | undefined): value is Locale {
  return (LOCALES as readonly (string | undefined)[]).includes(value)
}

/** The locale of a page from its `[locale]` route parameter. */
export function localeOf(params: Record<string, string | undefined>): Locale {
  const { locale } = params
  if (!isLocale(locale)) throw new Error(`No such locale: ${String(locale)}`)
  return locale
}

const TEXTS = {
  en: {
    language: 'English',
    shop: 'Maison Sandbox',
    skipLink: 'Skip to content',
    home: 'Products',
    brand: 'Our shops',
    languages: 'Language',
    homeTitle: 'Everything we sell, rated by our customers',
    brandTitle: 'What customers say about our shops',
    brandIntro:
      'Reviews of the brand as a whole, then of each shop. Shop reviews carry no star markup for search engines: Google treats reviews a business collects about itself as self-serving.',
    shopsNav: 'Shops',
    backToProducts: 'All products',
    by: 'by {brand}',
    inStock: 'In stock',
    outOfStock: 'Out of stock',
    price: 'Price',
    variants: 'Colours',
    groupIntro: 'One product in several colours: the reviews of every colour together.',
    groupLink: 'Every colour of {name}',
    details: 'Product details',
    detailsIntro:
      'This page has no review component: its product markup is the shop’s own, and the review rich snippets are added to its HTML after the build.',
    reviewsLink: 'Every review of this product',
    detailsLink: 'Product details',
    brandLabel: 'Brand',
    sku: 'SKU',
    gtin: 'EAN',
    notFoundTitle: 'Page not found',
    notFound: 'This page does not exist.',
    footer: 'A demo storefront of Verified Reviews for Astro: every rating and review is in the built HTML.',
  },
  fr: {
    language: 'Français',
    shop: 'Maison Sandbox',
    skipLink: 'Aller au contenu',
    home: 'Produits',
    brand: 'Nos boutiques',
    languages: 'Langue',
    homeTitle: 'Tous nos produits, notés par nos clients',
    brandTitle: 'Ce que les clients disent de nos boutiques',
    brandIntro:
      'Les avis sur la marque dans son ensemble, puis sur chaque boutique. Les avis sur les boutiques ne portent pas de balisage d’étoiles pour les moteurs de recherche : Google considère les avis qu’une entreprise recueille sur elle-même comme autopromotionnels.',
    shopsNav: 'Boutiques',
    backToProducts: 'Tous les produits',
    by: 'par {brand}',
    inStock: 'En stock',
    outOfStock: 'En rupture de stock',
    price: 'Prix',
    variants: 'Coloris',
    groupIntro: 'Un produit en plusieurs coloris : les avis de tous les coloris ensemble.',
    groupLink: 'Tous les coloris de {name}',
    details: 'Fiche produit',
    detailsIntro:
      'Cette page n’a pas de composant d’avis : son balisage produit est celui de la boutique, et les extraits enrichis d’avis sont ajoutés à son HTML après la construction.',
    reviewsLink: 'Tous les avis sur ce produit',
    detailsLink: 'Fiche produit',
    brandLabel: 'Marque',
    sku: 'Référence',
    gtin: 'EAN',
    notFoundTitle: 'Page introuvable',
    notFound: 'Cette page n’existe pas.',
    footer:
      'Une boutique de démonstration d’Avis Vérifiés pour Astro : chaque note et chaque avis sont dans le HTML construit.',
  },
  de: {
    language: 'Deutsch',
    shop: 'Maison Sandbox',
    skipLink: 'Zum Inhalt springen',
    home: 'Produkte',
    brand: 'Unsere Geschäfte',
    languages: 'Sprache',
    homeTitle: 'Alle unsere Produkte, bewertet von unseren Kunden',
    brandTitle: 'Was Kunden über unsere Geschäfte sagen',
    brandIntro:
      'Bewertungen der Marke insgesamt, dann jedes Geschäfts. Geschäftsbewertungen tragen kein Sterne-Markup für Suchmaschinen: Google behandelt Bewertungen, die ein Unternehmen über sich selbst sammelt, als eigennützig.',
    shopsNav: 'Geschäfte',
    backToProducts: 'Alle Produkte',
    by: 'von {brand}',
    inStock: 'Auf Lager',
    outOfStock: 'Ausverkauft',
    price: 'Preis',
    variants: 'Farben',
    groupIntro: 'Ein Produkt in mehreren Farben: die Bewertungen aller Farben zusammen.',
    groupLink: 'Alle Farben von {name}',
    details: 'Produktdetails',
    detailsIntro:
      'Diese Seite hat keine Bewertungskomponente: Ihr Produkt-Markup ist das des Shops, und die Rich Snippets der Bewertungen werden nach dem Build in ihr HTML eingefügt.',
    reviewsLink: 'Alle Bewertungen dieses Produkts',
    detailsLink: 'Produktdetails',
    brandLabel: 'Marke',
    sku: 'Artikelnummer',
    gtin: 'EAN',
    notFoundTitle: 'Seite nicht gefunden',
    notFound: 'Diese Seite gibt es nicht.',
    footer: 'Ein Demo-Shop von Verified Reviews für Astro: Jede Bewertung steht im gebauten HTML.',
  },
} as const satisfies Record<Locale, Record<string, string>>

export type TextKey = keyof (typeof TEXTS)['en']

export function text(locale: Locale, key: TextKey, params: Record<string, string> = {}): string {
  return TEXTS[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')
}
