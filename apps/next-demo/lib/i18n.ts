/** The languages of the demo's own texts; the review components speak 13. */
export const LOCALES = ['en', 'fr', 'de'] as const
export type Locale = (typeof LOCALES)[number]

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value)
}

const TEXTS = {
  en: {
    language: 'English',
    shop: 'Maison Sandbox',
    home: 'Products',
    brand: 'Our shops',
    checkout: 'Checkout',
    languages: 'Language',
    homeTitle: 'Everything we sell, rated by our customers',
    brandTitle: 'What customers say about our shops',
    allShops: 'All shops',
    filterShops: 'Shops',
    checkoutTitle: 'Checkout',
    checkoutIntro:
      'Place a demo order: a purchase event is sent to Verified Reviews, which later invites the customer to review the product.',
    product: 'Product',
    firstName: 'First name',
    lastName: 'Last name',
    email: 'Email',
    quantity: 'Quantity',
    placeOrder: 'Place order',
    orderSent: 'Order sent. Purchase event {id} is {status}.',
    orderFailed: 'The order could not be sent.',
    fixFields: 'Please correct the fields marked below.',
    backToProducts: 'All products',
    by: 'by {brand}',
    inStock: 'In stock',
    outOfStock: 'Out of stock',
  },
  fr: {
    language: 'Français',
    shop: 'Maison Sandbox',
    home: 'Produits',
    brand: 'Nos boutiques',
    checkout: 'Commander',
    languages: 'Langue',
    homeTitle: 'Tous nos produits, notés par nos clients',
    brandTitle: 'Ce que les clients disent de nos boutiques',
    allShops: 'Toutes les boutiques',
    filterShops: 'Boutiques',
    checkoutTitle: 'Commander',
    checkoutIntro:
      'Passez une commande de démonstration : un événement d’achat est envoyé à Avis Vérifiés, qui invitera ensuite le client à donner son avis.',
    product: 'Produit',
    firstName: 'Prénom',
    lastName: 'Nom',
    email: 'E-mail',
    quantity: 'Quantité',
    placeOrder: 'Commander',
    orderSent: 'Commande envoyée. L’événement d’achat {id} est {status}.',
    orderFailed: 'La commande n’a pas pu être envoyée.',
    fixFields: 'Corrigez les champs signalés ci-dessous.',
    backToProducts: 'Tous les produits',
    by: 'par {brand}',
    inStock: 'En stock',
    outOfStock: 'En rupture de stock',
  },
  de: {
    language: 'Deutsch',
    shop: 'Maison Sandbox',
    home: 'Produkte',
    brand: 'Unsere Geschäfte',
    checkout: 'Kasse',
    languages: 'Sprache',
    homeTitle: 'Alle unsere Produkte, bewertet von unseren Kunden',
    brandTitle: 'Was Kunden über unsere Geschäfte sagen',
    allShops: 'Alle Geschäfte',
    filterShops: 'Geschäfte',
    checkoutTitle: 'Kasse',
    checkoutIntro:
      'Geben Sie eine Demo-Bestellung auf: Ein Kaufereignis wird an Verified Reviews gesendet, das den Kunden später um eine Bewertung bittet.',
    product: 'Produkt',
    firstName: 'Vorname',
    lastName: 'Nachname',
    email: 'E-Mail',
    quantity: 'Menge',
    placeOrder: 'Bestellen',
    orderSent: 'Bestellung gesendet. Kaufereignis {id} ist {status}.',
    orderFailed: 'Die Bestellung konnte nicht gesendet werden.',
    fixFields: 'Bitte korrigieren Sie die markierten Felder.',
    backToProducts: 'Alle Produkte',
    by: 'von {brand}',
    inStock: 'Auf Lager',
    outOfStock: 'Ausverkauft',
  },
} as const satisfies Record<Locale, Record<string, string>>

export type TextKey = keyof (typeof TEXTS)['en']

export function text(locale: Locale, key: TextKey, params: Record<string, string> = {}): string {
  return TEXTS[locale][key].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')
}
