#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { createSandbox, SandboxOptionError, type SandboxOptions } from './index.ts'
import { DEFAULTS } from './internal/options.ts'

/** CLI flags and the option each sets; numeric ones are parsed as integers. */
const FLAGS = {
  port: { option: 'port', integer: true },
  host: { option: 'host', integer: false },
  seed: { option: 'seed', integer: true },
  'client-id': { option: 'clientId', integer: false },
  'client-secret': { option: 'clientSecret', integer: false },
  'website-id': { option: 'websiteId', integer: false },
  'genesis-secret': { option: 'genesisSecret', integer: false },
  'rate-limit': { option: 'rateLimit', integer: true },
  'token-ttl': { option: 'tokenTtl', integer: true },
  products: { option: 'products', integer: true },
  reviews: { option: 'reviews', integer: true },
} as const satisfies Record<string, { option: keyof SandboxOptions; integer: boolean }>

type Flag = keyof typeof FLAGS

const USAGE = `Usage: verified-reviews-sandbox [options]

A local emulator of the Verified Reviews APIs with seeded data.

  --port <n>             port to listen on (default ${DEFAULTS.port}: a free one)
  --host <address>       address to listen on (default ${DEFAULTS.host}); 0.0.0.0 or ::
                         opens it to other machines, with a warning
  --allowed-host <name>  a further host name the /__sandbox/ routes answer on, besides
                         localhost, 127.0.0.1, [::1] and --host (repeatable)
  --seed <n>             seed of the generated data (default ${DEFAULTS.seed})
  --client-id <id>       OAuth client id (default ${DEFAULTS.clientId})
  --client-secret <s>    OAuth client secret (default ${DEFAULTS.clientSecret})
  --website-id <uuid>    website id (default: derived from the seed)
  --genesis-secret <s>   Genesis API secret key (default ${DEFAULTS.genesisSecret})
  --rate-limit <n>       requests per second per client, 0 = off (default ${DEFAULTS.rateLimit})
  --token-ttl <s>        access token lifetime in seconds (default ${DEFAULTS.tokenTtl})
  --products <n>         products in the generated catalogue (default ${DEFAULTS.products})
  --reviews <n>          product reviews generated over it (default ${DEFAULTS.reviews})
  -h, --help             show this help
`

/** A usage error: the message names the flag; exit status 2, as shells expect. */
function usageError(message: string): never {
  process.stderr.write(`verified-reviews-sandbox: ${message}\n${USAGE}`)
  process.exit(2)
}

function parseOptions(argv: string[]): SandboxOptions {
  let values: Record<string, string | boolean | string[] | undefined>
  try {
    ;({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }])),
        'allowed-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }))
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error))
  }
  if (values.help) {
    process.stdout.write(USAGE)
    process.exit(0)
  }
  const options: Record<string, string | number | string[]> = {}
  const allowedHosts = values['allowed-host']
  if (Array.isArray(allowedHosts)) options.allowedHosts = allowedHosts
  for (const flag of Object.keys(FLAGS) as Flag[]) {
    const value = values[flag]
    if (typeof value !== 'string') continue
    const { option, integer } = FLAGS[flag]
    if (integer) {
      if (!/^-?\d+$/.test(value)) usageError(`--${flag} must be an integer, not "${value}"`)
      options[option] = Number(value)
    } else {
      options[option] = value
    }
  }
  return options as SandboxOptions
}

const flagOf = (option: keyof SandboxOptions) =>
  option === 'allowedHosts'
    ? 'allowed-host'
    : ((Object.keys(FLAGS) as Flag[]).find((flag) => FLAGS[flag].option === option) ?? option)

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  let sandbox: Awaited<ReturnType<typeof createSandbox>>
  try {
    sandbox = await createSandbox(options)
  } catch (error) {
    if (error instanceof SandboxOptionError) {
      usageError(`--${flagOf(error.option)}${error.message.slice(error.option.length)}`)
    }
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      process.stderr.write(
        `verified-reviews-sandbox: cannot listen on ${options.host ?? DEFAULTS.host}:${options.port}: ${code}\n`,
      )
      process.exit(1)
    }
    throw error
  }
  // Handlers first: a supervisor may signal as soon as it reads the banner.
  let closing = false
  const stop = () => {
    if (closing) return
    closing = true
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  const { origin } = sandbox
  // The wildcard warning went to stderr from createSandbox; the banner names the real address too.
  const where = origin.endsWith(`//${sandbox.address}`)
    ? origin
    : `${sandbox.address} (every interface; ${origin} from this machine)`
  process.stdout.write(
    [
      `Verified Reviews sandbox listening on ${where}`,
      `  client id       ${sandbox.clientId}`,
      `  client secret   ${sandbox.clientSecret}`,
      `  website id      ${sandbox.websiteId}`,
      `  genesis secret  ${sandbox.genesisSecret}`,
      `  seed ${options.seed ?? DEFAULTS.seed}, ${options.products ?? DEFAULTS.products} products, ${options.reviews ?? DEFAULTS.reviews} product reviews, rate limit ${options.rateLimit ?? DEFAULTS.rateLimit}/s, token lifetime ${options.tokenTtl ?? DEFAULTS.tokenTtl} s`,
      `  Published API   ${origin}/verified-reviews/v1/published`,
      `  state           ${origin}/__sandbox/stats`,
      '',
    ].join('\n'),
  )
}

await main()
