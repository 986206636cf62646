// What a release needs, checked without building or packing anything (the tarball test reads the same
// back from the packed packages): the licence, the fields provenance needs, README links that work on
// npm, the changesets setup, and the release workflow that cannot run here.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { base, deployed, repository, site } from '../../apps/docs/site.mjs'
import {
  docsLink,
  expectedFields,
  packageReadmeProblems,
  publicPackages,
  releaseMetadataProblems,
  root,
  routeOfSource,
  sourceOfRoute,
} from '../../scripts/release-metadata.ts'

const read = (path: string): string => readFileSync(join(root, path), 'utf8')
const json = <T>(path: string): T => JSON.parse(read(path)) as T

describe('the release metadata', () => {
  it('is what scripts/release-metadata.ts writes from apps/docs/site.mjs (`pnpm release:metadata --write`)', () => {
    expect(releaseMetadataProblems()).toEqual([])
  })

  it('derives the docs address from the one repository site.mjs names', () => {
    expect(repository).toEqual({ owner: 'verified-reviews', name: 'verified-reviews' })
    expect(`${site}${base}/`).toBe('https://verified-reviews.github.io/verified-reviews/')
    expect(expectedFields('sandbox')).toMatchObject({
      repository: {
        type: 'git',
        url: 'git+https://github.com/verified-reviews/verified-reviews.git',
        directory: 'packages/sandbox',
      },
      bugs: { url: 'https://github.com/verified-reviews/verified-reviews/issues' },
    })
  })

  it('publishes the eight packages, the sandbox among them, under the MIT licence of the contributors', () => {
    expect(publicPackages().map(({ folder }) => folder)).toEqual([
      'astro',
      'core',
      'inject',
      'migrate',
      'next',
      'react',
      'redis',
      'sandbox',
    ])
    const license = read('LICENSE')
    expect(license).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} the Verified Reviews integration contributors\n/,
    )
    expect(license).toContain('Permission is hereby granted, free of charge, to any person obtaining a copy')
    for (const { folder, manifest } of publicPackages()) {
      expect(manifest.license, folder).toBe('MIT')
      expect(read(`packages/${folder}/LICENSE`), folder).toBe(license)
    }
  })
})

describe('the README links of a package, as npm shows them', () => {
  const source = 'https://github.com/verified-reviews/verified-reviews/blob/main/apps/docs/src/content/docs/'

  it('point to the docs sources on GitHub until the site is deployed, to the site after', () => {
    const pages = {
      'https://verified-reviews.github.io/verified-reviews/packages/redis/quick-start/#a-runnable-example': `${source}packages/redis/quick-start.md#a-runnable-example`,
      'https://verified-reviews.github.io/verified-reviews/packages/core/': `${source}packages/core/index.md`,
      'https://verified-reviews.github.io/verified-reviews/guides/nextjs/': `${source}guides/nextjs.mdx`,
      'https://verified-reviews.github.io/verified-reviews/reference/api/verified-reviews/core/':
        'https://github.com/verified-reviews/verified-reviews/tree/main/packages/core/src',
    }
    for (const [page, file] of Object.entries(pages)) {
      // Either form gives the form site.mjs asks for, so `--write` switches them both ways.
      expect(docsLink(page)).toBe(deployed ? page : file)
      expect(docsLink(file)).toBe(deployed ? page : file)
    }
    expect(routeOfSource('apps/docs/src/content/docs/packages/core/index.md')).toBe('packages/core/')
    expect(routeOfSource('apps/docs/src/content/docs/index.mdx')).toBe('')
    expect(sourceOfRoute('packages/no-such-package/')).toBeUndefined()
  })

  it('are refused when relative, into the site before it is deployed, or naming a file the repository lacks', () => {
    const readme = [
      '![The demo](../../apps/next-demo/docs/next-demo-product.png)',
      '[the guide](https://verified-reviews.github.io/verified-reviews/guides/nextjs/)',
      `[gone](${source}packages/core/no-such-page.md)`,
      `[fine](${source}packages/core/cache.md), [here](#install), \`https://verified-reviews.github.io/verified-reviews/\``,
      '```md\n[in a code block](./not-a-link.md)\n```',
    ].join('\n')
    expect(packageReadmeProblems('README.md', readme)).toEqual([
      'README.md: ../../apps/next-demo/docs/next-demo-product.png: a relative link, which npm cannot resolve',
      ...(deployed
        ? []
        : [
            'README.md: https://verified-reviews.github.io/verified-reviews/guides/nextjs/: the docs site is not deployed yet (apps/docs/site.mjs)',
          ]),
      `README.md: ${source}packages/core/no-such-page.md: no apps/docs/src/content/docs/packages/core/no-such-page.md in the repository`,
    ])
  })
})

interface ChangesetsConfig {
  access: string
  baseBranch: string
  fixed: string[][]
  privatePackages: { version: boolean; tag: boolean }
}

describe('the changesets setup', () => {
  const config = json<ChangesetsConfig>('.changeset/config.json')
  const names = publicPackages().map(({ name }) => name)

  it('publishes in public, from main, every public package at one version, never a private one', () => {
    expect(config).toMatchObject({
      access: 'public',
      baseBranch: 'main',
      privatePackages: { version: false, tag: false },
    })
    // A package the repository adds joins the same release.
    expect(config.fixed.map((group) => [...group].sort())).toEqual([names])
  })

  it('has, for every public package, a CHANGELOG.md or a pending changeset that starts it', () => {
    const pending = readdirSync(join(root, '.changeset'))
      .filter((file) => file.endsWith('.md') && file !== 'README.md')
      .map((file) => read(`.changeset/${file}`))
    for (const { folder, name } of publicPackages()) {
      const named = pending.some((text) => text.split('---')[1]?.includes(`"${name}":`))
      expect(existsSync(join(root, 'packages', folder, 'CHANGELOG.md')) || named, name).toBe(true)
    }
  })

  it('runs through the root scripts the workflow calls', () => {
    const { scripts } = json<{ scripts: Record<string, string> }>('package.json')
    expect(scripts).toMatchObject({
      changeset: 'changeset',
      'version-packages': 'changeset version',
      release: 'pnpm build && changeset publish',
    })
  })
})

interface Step {
  uses?: string
  run?: string
  id?: string
  with?: Record<string, unknown>
  env?: Record<string, unknown>
}
interface Job {
  needs?: string | string[]
  if?: string
  permissions?: Record<string, string>
  environment?: { name: string }
  steps: Step[]
}

describe('the release workflow (.github/workflows/release.yml)', () => {
  const workflow = parse(read('.github/workflows/release.yml')) as {
    on: { push: { branches: string[] } }
    permissions: Record<string, string>
    jobs: Record<string, Job>
  }
  const { release, docs } = workflow.jobs
  if (!release || !docs) throw new Error('the workflow has no `release` or `docs` job')
  const { nodeVersion } = parse(read('pnpm-workspace.yaml')) as { nodeVersion: string }
  const { packageManager } = json<{ packageManager: string }>('package.json')

  it('runs on a push to main, reading only unless a job asks for more', () => {
    expect(workflow.on.push.branches).toEqual(['main'])
    expect(workflow.permissions).toEqual({ contents: 'read' })
  })

  it('opens the version pull request or publishes with provenance through changesets/action', () => {
    expect(release.permissions).toEqual({
      contents: 'write',
      'pull-requests': 'write',
      'id-token': 'write',
    })
    const changesets = release.steps.find((step) => step.uses?.startsWith('changesets/action@'))
    expect(changesets).toMatchObject({
      id: 'changesets',
      with: { version: 'pnpm version-packages', publish: 'pnpm release' },
    })
    expect(String(changesets?.env?.NPM_CONFIG_PROVENANCE)).toBe('true')
    expect(changesets?.env).toHaveProperty('NPM_TOKEN')
    // What is published is checked before: the tarball test, after the build it packs.
    const runs = release.steps.map((step) => step.run ?? step.uses ?? '')
    const tarballs = runs.findIndex((run) => run.includes('test/packaging/tarballs.test.ts'))
    expect(runs.indexOf('pnpm build')).toBeGreaterThan(-1)
    expect(tarballs).toBeGreaterThan(runs.indexOf('pnpm build'))
    expect(runs.indexOf(changesets?.uses ?? '')).toBeGreaterThan(tarballs)
  })

  it('builds and deploys the docs site to GitHub Pages once packages are published', () => {
    expect(docs.needs).toBe('release')
    expect(docs.if).toContain("needs.release.outputs.published == 'true'")
    expect(docs.permissions).toEqual({ contents: 'read', pages: 'write', 'id-token': 'write' })
    expect(docs.environment?.name).toBe('github-pages')
    const runs = docs.steps.map((step) => step.run ?? step.uses?.replace(/@.*/, '') ?? '')
    expect(runs).toEqual([
      'actions/checkout',
      'pnpm/action-setup',
      'actions/setup-node',
      'pnpm install --frozen-lockfile',
      'pnpm build',
      'pnpm docs:build',
      'actions/configure-pages',
      'actions/upload-pages-artifact',
      'actions/deploy-pages',
    ])
    expect(docs.steps.find((step) => step.uses?.startsWith('actions/upload-pages-artifact@'))?.with).toEqual({
      path: 'apps/docs/dist',
    })
  })

  it("sets up the repository's Node.js and pnpm, and pins every action to a major version", () => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const node = job.steps.find((step) => step.uses?.startsWith('actions/setup-node@'))
      expect(node?.with?.['node-version'], name).toBe(nodeVersion)
      const pnpm = job.steps.find((step) => step.uses?.startsWith('pnpm/action-setup@'))
      // Without a version, pnpm/action-setup installs `packageManager`'s; a version here would differ from it.
      expect(pnpm?.with?.version ?? packageManager.replace(/^pnpm@/, ''), name).toBe(
        packageManager.replace(/^pnpm@/, ''),
      )
      for (const step of job.steps.filter((step) => step.uses)) {
        expect(step.uses, name).toMatch(/^[\w-]+\/[\w-]+@v\d+$/)
      }
      expect(job.steps.find((step) => step.run?.startsWith('pnpm install'))?.run, name).toBe(
        'pnpm install --frozen-lockfile',
      )
    }
  })
})
