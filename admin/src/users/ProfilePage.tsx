import { Title } from 'react-admin';

// PLACEHOLDER: replaced by the screen's real component.
export default function Screen() {
  return <Title title="…" />;
}
