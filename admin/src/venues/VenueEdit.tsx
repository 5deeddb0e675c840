import { LinkedEdit } from './LinkedForm';
import { VENUE_UI } from './linked.kinds';

export default function VenueEdit() {
  return <LinkedEdit kind={VENUE_UI} />;
}
