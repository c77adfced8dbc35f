// The Artifact record (live service): its type, its contract and the client's check of an answer.
import * as v from 'valibot';
import { checked, field, kept, NOT_A_UUID, record, unexpected, UUID, without } from './fields.js';

export const ARTIFACT = record('artifact', {
  id: field(UUID, NOT_A_UUID),
  // Presigned, on another host, valid for days: fetched without the key.
  url: field(v.string(), without('a download url')),
  file_name: kept(v.nullable(v.string())),
  file_path: kept(v.optional(v.nullable(v.string()))),
  file_size_in_kb: kept(v.optional(v.nullable(v.number()))),
  mime_type: kept(v.optional(v.nullable(v.string()))),
  // 'plan' or 'file' today; kept as sent when the service adds others.
  kind: kept(v.string()),
  plan_id: kept(v.nullable(UUID)),
  created_at: kept(v.string()),
});

/** A plan iteration or a file, with a presigned download link. */
export type Artifact = v.InferOutput<typeof ARTIFACT.contract>;

/** An artifact record answered; `asked` is the id it must have. */
export function asArtifact(value: unknown, asked: string): Artifact {
  const artifact = checked<Artifact>(ARTIFACT, value);
  if (artifact.id.toLowerCase() !== asked.toLowerCase()) {
    throw unexpected(`asked for artifact ${asked}, the service answered with artifact ${artifact.id}`);
  }
  return artifact;
}
