import { STREAMS, type StreamName } from './define.ts';

/**
 * A stream's id: its stream's name, a dash, and the id of what it holds (`audit-aud_...`,
 * `account-acc_...`). The one place that builds and reads them; each stream's `xxxStreamId`
 * builds with `streamIdOf`, and readers take the id back with `idOf` instead of a regex.
 */
export type StreamId<S extends StreamName = StreamName> = `${S}-${string}`;

export const streamIdOf = <S extends StreamName>(stream: S, id: string): StreamId<S> => `${stream}-${id}`;

/** The stream and the id a stream id names, or null when it names none of the streams. */
export const parseStreamId = (streamId: string): { stream: StreamName; id: string } | null => {
  const dash = streamId.indexOf('-');
  if (dash < 1) return null;
  const stream = streamId.slice(0, dash);
  const id = streamId.slice(dash + 1);
  if (id === '' || !(STREAMS as readonly string[]).includes(stream)) return null;
  return { stream: stream as StreamName, id };
};

/** The id a stream id of `stream` names; throws on another stream's id, a caller's bug. */
export const idOf = (stream: StreamName, streamId: string): string => {
  const parsed = parseStreamId(streamId);
  if (!parsed || parsed.stream !== stream) throw new Error(`${streamId} is not a stream id of ${stream}`);
  return parsed.id;
};
