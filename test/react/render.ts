import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { prerender } from 'react-dom/static'

/** The server HTML of `node` as a document body (needs the jsdom environment for `DOMParser`). */
export function bodyOf(html: string): HTMLElement {
  return new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html').body
}

/** Awaits an async Server Component's element and renders it to HTML, as a server would. */
export async function renderAwaited(element: Promise<ReactNode> | ReactNode): Promise<HTMLElement> {
  return bodyOf(renderToString(await element))
}

/** Renders a tree that holds async Server Components (React's static prerender awaits them). */
export async function prerenderTree(node: ReactNode): Promise<HTMLElement> {
  const { prelude } = await prerender(node)
  return bodyOf(await new Response(prelude).text())
}

/** Every JSON-LD script of `body`, parsed; each script's text must hold no `<`, `>` or `&`. */
export function jsonLdOf(body: HTMLElement): unknown[] {
  return [...body.querySelectorAll('script[type="application/ld+json"]')].map((script) => {
    const text = script.textContent ?? ''
    if (/[<>&]/.test(text)) throw new Error(`unescaped markup in a JSON-LD script: ${text.slice(0, 80)}`)
    return JSON.parse(text)
  })
}

/** Markup with each element's attributes in name order: React's client sets `src` last, the server writes it first. */
export function canonical(node: Node): string {
  if (!(node instanceof Element)) return node.textContent ?? ''
  const attributes = [...node.attributes].map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort()
  return `<${node.localName} ${attributes.join(' ')}>${[...node.childNodes].map(canonical).join('')}</${node.localName}>`
}
