import { LinkedCreate } from '../venues/LinkedForm';
import { ORGANIZER_UI } from '../venues/linked.kinds';

export default function OrganizerCreate() {
  return <LinkedCreate kind={ORGANIZER_UI} />;
}
