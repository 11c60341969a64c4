/** Builds the configured SERP provider. A bad SERP file throws here, at start. */
import { createDataForSeoProvider } from './dataForSeo/provider.ts';
import { createFileSerpProvider } from './fileProvider.ts';
import { noneSerpProvider } from './noneProvider.ts';
import type { SerpSettings } from './settings.ts';
import type { SerpProvider } from './types.ts';

export function createSerpProvider(settings: SerpSettings): SerpProvider {
  switch (settings.provider) {
    case 'none':
      return noneSerpProvider();
    case 'file':
      return createFileSerpProvider(settings.file);
    case 'http':
      return createDataForSeoProvider(settings);
    default: {
      const _exhaustive: never = settings;
      return _exhaustive;
    }
  }
}

export type { SerpData, SerpProvider, OrganicResult } from './types.ts';
export type { SerpSettings } from './settings.ts';
