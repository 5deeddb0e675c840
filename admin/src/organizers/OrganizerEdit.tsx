import { LinkedEdit } from '../venues/LinkedForm';
import { ORGANIZER_UI } from '../venues/linked.kinds';

export default function OrganizerEdit() {
  return <LinkedEdit kind={ORGANIZER_UI} />;
}
