import { useState } from 'react';
import { Create, useRedirect, useTranslate } from 'react-admin';
import { ShownOnceDialog } from '../users/ShownOnceDialog';
import { WebhookForm } from './WebhookForm';

interface CreatedWebhook {
  id: number;
  secret?: string;
}

/** A new subscription; its signing secret, which only this answer carries, is shown once. */
export default function WebhookCreate() {
  const translate = useTranslate();
  const redirect = useRedirect();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <>
      <Create redirect={false} mutationOptions={{ onSuccess: (data: CreatedWebhook) => setCreated(data) }}>
        <WebhookForm defaultValues={{ events: ['event.*'], languages: [], active: true }} />
      </Create>
      <ShownOnceDialog
        title={translate('cal.webhooks.secret_title')}
        label={translate('cal.webhooks.secret')}
        secret={created ? (created.secret ?? '') : null}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          redirect('edit', 'webhooks', id);
        }}
      />
    </>
  );
}
