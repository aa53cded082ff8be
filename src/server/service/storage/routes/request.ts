/** Turning a Fastify request into the plain values the storage domain takes, and a read answer into a reply. */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type ParsedObjectKey, parseObjectKey } from "../../../../shared/storage";
import { HttpError, badRequest } from "../../../http-error";
import type { Requester } from "../domain/access";
import type { ReadAnswer } from "../domain/read-object";
import type { Conditions, ReadOutcome } from "../domain/read-plan";
import { type ResizeBox, parseResize } from "../domain/resize-params";

export type Query = Record<string, unknown>;

export const requester = (request: FastifyRequest): Requester => ({
  hasKey: request.apiKey.kind === "valid",
  socketAddress: request.socket.remoteAddress,
  forwardedFor: request.headers["x-forwarded-for"],
});

export const bucketParam = (request: FastifyRequest) => (request.params as { bucket: string }).bucket;
/** The `*` of a route is the object key, already percent-decoded once by the router. */
export const wildcard = (request: FastifyRequest) => (request.params as { "*": string })["*"];

export function parseKey(raw: string): ParsedObjectKey {
  const parsed = parseObjectKey(raw);
  if (!parsed.ok) throw HttpError.from(parsed.error);
  return parsed.value;
}

export function intParam(name: string, raw: unknown, min: number, max: number, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  if (typeof raw !== "string" || !/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(`${name} must be one whole number from ${min} to ${max}.`);
  }
  return Number(raw);
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(", ") : v);

export const conditions = (request: FastifyRequest): Conditions => ({
  ifNoneMatch: header(request.headers["if-none-match"]),
  ifRange: header(request.headers["if-range"]),
  range: header(request.headers.range),
  head: request.method === "HEAD",
});

export function resizeBox(request: FastifyRequest): ResizeBox | undefined {
  const resize = parseResize(request.query as Query, request.headers);
  if (!resize.ok) throw HttpError.from(resize.error);
  return resize.value;
}

/** The HTTP status of each read outcome: a choice of the transport, not of the domain. */
const readStatus: Record<ReadOutcome, number> = { whole: 200, partial: 206, not_modified: 304, unsatisfiable: 416 };

export function sendRead(reply: FastifyReply, answer: ReadAnswer): FastifyReply {
  const { plan, body } = answer;
  reply.code(readStatus[plan.outcome]).headers(plan.headers);
  if (plan.refusal) return reply.type("application/json; charset=utf-8").send(HttpError.from(plan.refusal).toBody());
  return reply.send(body);
}
