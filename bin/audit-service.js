#!/usr/bin/env node
// The package's bin: TypeScript run through tsx's loader, registered here so that the program
// works from any folder (`npx audit-service ...`), not only where `--import tsx` resolves.
import { register } from 'tsx/esm/api';

register();
await import('../services/cli.ts');
