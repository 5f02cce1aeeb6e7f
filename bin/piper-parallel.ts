#!/usr/bin/env node
/** Thin command line: everything is in lib/cli; this only hands it the arguments. */
import { runMain } from '../lib/cli/main.js';

runMain(process.argv.slice(2));
