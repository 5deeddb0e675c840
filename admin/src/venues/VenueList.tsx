import { LinkedList } from './LinkedList';
import { VENUE_UI } from './linked.kinds';

export default function VenueList() {
  return <LinkedList kind={VENUE_UI} />;
}
