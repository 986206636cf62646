#!/usr/bin/env node
import { runCommand } from './command.ts'

process.exitCode = await runCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
})
