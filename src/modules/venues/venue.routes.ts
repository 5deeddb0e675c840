import { linkedRoutes } from '../linked/linked.routes.js';
import { VENUE } from './venue.kind.js';

/** `/cal/events/v1/venues…`: the shared venue/organizer routes for venues. */
export const venueRoutes = linkedRoutes(VENUE);
