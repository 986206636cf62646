// The documentation site. The reference is generated at build time by TypeDoc from the TSDoc of every
// public entry point (the `exports` of packages/*/package.json), so a changed comment changes the site;
// starlight-links-validator fails the build on a broken internal link.
import starlight from '@astrojs/starlight'
import { defineConfig, passthroughImageService } from 'astro/config'
import starlightLinksValidator from 'starlight-links-validator'
import starlightTypeDoc, { typeDocSidebarGroup } from 'starlight-typedoc'
import { publicEntryPoints } from './entry-points.mjs'
import { base, site } from './site.mjs'

export default defineConfig({
  site,
  base,
  // Images are shown as they are: no sharp (a native download) for one screenshot.
  image: { service: passthroughImageService() },
  integrations: [
    starlight({
      title: 'Verified Reviews',
      description:
        'Verified Reviews (Skeepers) ratings, reviews and rich snippets in Next.js and Astro, on the server.',
      plugins: [
        starlightTypeDoc({
          entryPoints: publicEntryPoints().map((entry) => entry.file),
          tsconfig: './tsconfig.typedoc.json',
          output: 'reference/api',
          sidebar: { label: 'API reference (from TSDoc)', collapsed: true },
          typeDoc: {
            plugin: ['./typedoc-module-names.mjs'],
            excludePrivate: true,
            excludeInternal: true,
            skipErrorChecking: true,
            name: 'API reference',
            gitRevision: 'main',
            entryFileName: 'index',
            outputFileStrategy: 'members',
            membersWithOwnFile: ['Class', 'Interface', 'Enum'],
          },
        }),
        starlightLinksValidator({ errorOnRelativeLinks: false }),
      ],
      sidebar: [
        { label: 'Start here', items: ['index', 'getting-started', 'architecture'] },
        { label: 'Guides', items: [{ autogenerate: { directory: 'guides' } }] },
        { label: 'Packages', collapsed: true, items: [{ autogenerate: { directory: 'packages' } }] },
        typeDocSidebarGroup,
      ],
    }),
  ],
})
