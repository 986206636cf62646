#!/usr/bin/env node
// The bin is a file of the source tree, so that a workspace install can link it before dist/ is built.
import '../dist/cli.js'
