#!/usr/bin/env node
// The package's bin: the operator CLI and the offline audit, from the build in dist/, so that the
// program works from any folder (`npx audit-service ...`).
import { runCompiled } from './compiled.js';

await runCompiled('services/cli');
