import { linkedRoutes } from '../linked/linked.routes.js';
import { ORGANIZER } from './organizer.kind.js';

/** `/cal/events/v1/organizers…`: the shared venue/organizer routes for organizers. */
export const organizerRoutes = linkedRoutes(ORGANIZER);
