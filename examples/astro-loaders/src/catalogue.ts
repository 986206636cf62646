// Your catalogue: the one list the product pages and the review loader both read. In a real
// shop this comes from your database or CMS; what matters is that both read the same list.

export interface Product {
  /** The product's id in Verified Reviews (`product_variation_id`), also its URL segment. */
  id: string
  name: string
  description: string
  price: number
}

export const PRODUCTS: Product[] = [
  { id: 'SKU-001', name: 'Merino Wool Sweater', description: 'A warm crew-neck sweater.', price: 89 },
  { id: 'SKU-002', name: 'Linen Shirt', description: 'A light shirt for summer.', price: 59 },
  { id: 'SKU-003', name: 'Canvas Sneakers', description: 'Everyday sneakers.', price: 75 },
]
