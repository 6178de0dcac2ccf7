import type { Envelope, MessageType, PayloadMap, Sender } from './generated/ws-types.ts';

/** A frame whose payload type follows its `type`. */
export type Frame<T extends MessageType = MessageType> = T extends MessageType
  ? Omit<Envelope, 'type' | 'payload'> & { type: T; payload: PayloadMap[T] }
  : never;

/** Current protocol version; the handshake picks the highest both sides speak. */
export const PROTOCOL_VERSION = 1;

/** Options for `makeFrame`. */
export interface FrameOptions {
  tenant: string;
  sender: Sender;
  /** Correlation id (task id or command id). */
  corr?: string;
  /** Ask the peer for an `ack` frame; the sender resends until it gets one. */
  requestAck?: boolean;
  /** Id of the frame this one acknowledges (for `ack` frames). */
  ackFor?: string;
  /** Frame id; a fresh UUID by default. */
  id?: string;
  /** Clock; `Date.now` by default. */
  now?: () => number;
}

/** Build a frame with a fresh id and timestamp. */
export function makeFrame<T extends MessageType>(type: T, payload: PayloadMap[T], options: FrameOptions): Frame<T> {
  const frame: Record<string, unknown> = {
    type,
    id: options.id ?? crypto.randomUUID(),
    ts: new Date((options.now ?? Date.now)()).toISOString(),
    tenant: options.tenant,
    sender: options.sender,
    payload,
  };
  if (options.corr !== undefined) frame.corr = options.corr;
  if (options.requestAck || options.ackFor !== undefined) {
    const ack: { for?: string; request?: boolean } = {};
    if (options.ackFor !== undefined) ack.for = options.ackFor;
    if (options.requestAck) ack.request = true;
    frame.ack = ack;
  }
  return frame as Frame<T>;
}
