import { LinkedCreate } from './LinkedForm';
import { VENUE_UI } from './linked.kinds';

export default function VenueCreate() {
  return <LinkedCreate kind={VENUE_UI} />;
}
