import { type ApiError, forbidden, gone, notFound } from '../../http/errors.js';
import type { LinkedKind } from './linked.kind.js';

/** The original's venue and organizer error codes and messages (R/Messages.php), one catalog per kind. */
export function linkedErrors(kind: LinkedKind) {
  const { code, label } = kind;
  const noun = label.toLowerCase();
  return {
    notFound: (id: number): ApiError => notFound(`rest-${code}-not-found`, `${label} with ID ${id} does not exist.`),
    notFoundBySlug: (slug: string): ApiError =>
      notFound(`rest-${code}-not-found`, `${label} with slug ${slug} does not exist.`),
    notAccessible: (): ApiError => forbidden(`${code}-not-accessible`, `The requested ${noun} is not accessible`),
    inTrash: (): ApiError => gone(`${code}-is-in-trash`, `The ${noun} is already trashed`),
    archivePageNotFound: (): ApiError =>
      notFound(`${code}-archive-page-not-found`, `The requested ${noun} archive page does not exist`),
  };
}
