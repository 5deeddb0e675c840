import { LinkedList } from '../venues/LinkedList';
import { ORGANIZER_UI } from '../venues/linked.kinds';

export default function OrganizerList() {
  return <LinkedList kind={ORGANIZER_UI} />;
}
