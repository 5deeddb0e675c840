import { ApiError, forbidden, gone, notFound } from '../../http/errors.js';

/** The original's event error codes and messages (R/Messages.php), in one place. */
export const eventErrors = {
  notFound: (id: number | string) => notFound('rest-event-not-found', `Event with ID ${id} does not exist.`),
  notAnEvent: () => new ApiError(400, 'rest-invalid-event-id', 'The specified ID is not a valid event.'),
  notFoundBySlug: (slug: string) => notFound('rest-event-not-found', `Event with slug ${slug} does not exist.`),
  inTrash: () => gone('event-is-in-trash', 'The event is already trashed'),
  noLongerAvailable: () => forbidden('event-no-longer-available', 'This event is no longer available'),
  notAccessible: () => forbidden('event-not-accessible', 'The requested event is not accessible'),
  passwordProtected: () => forbidden('event-password-protected', 'The requested event is password protected.'),
  archivePageNotFound: () =>
    notFound('event-archive-page-not-found', 'The requested event archive page does not exist'),
  couldNotCreateVenue: () =>
    new ApiError(400, 'could-not-create-venue', 'The venue could not be created from the provided data'),
  couldNotCreateOrganizer: () =>
    new ApiError(400, 'could-not-create-organizer', 'The organizer could not be created from the provided data'),
};
