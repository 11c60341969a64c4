import type { EventDefinition, AnyEventDefinition } from './define.ts';

/** Every event type the service knows, by type name. The catalogue (events/catalogue.ts) fills it. */
const definitions = new Map<string, EventDefinition>();

export const registerEvents = (...defs: AnyEventDefinition[]): void => {
  for (const d of defs) {
    const existing = definitions.get(d.type);
    if (existing && existing !== d) throw new Error(`event type ${d.type} is declared twice`);
    definitions.set(d.type, d);
  }
};

export const eventDefinition = (type: string): EventDefinition => {
  const d = definitions.get(type);
  if (!d) throw new Error(`unknown event type ${type}`);
  return d;
};

export const hasEventDefinition = (type: string): boolean => definitions.has(type);

export const allEventDefinitions = (): EventDefinition[] => [...definitions.values()];
