import { ListGuesser } from 'react-admin';

// PLACEHOLDER: replaced by the screen's real component.
export default function Screen() {
  return <ListGuesser />;
}
