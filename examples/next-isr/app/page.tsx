import Link from 'next/link'
import { PRODUCTS } from '@/lib/catalogue'

export default function Home() {
  return (
    <main>
      <h1>Products</h1>
      <ul>
        {PRODUCTS.map((product) => (
          <li key={product.id}>
            <Link href={`/products/${product.id}`}>{product.name}</Link>
          </li>
        ))}
      </ul>
    </main>
  )
}
