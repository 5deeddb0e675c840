import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import type { SubmissionRecord } from './submission-record';

/** White text on each at 4.5:1 or more (axe checks every screen); the palette's own warning is lighter. */
const COLOURS = { verified: '#1b5e20', unverified: '#8a4b00', duplicate: '#b71c1c', duplicateHover: '#8e1414' };

/**
 * The form's checks as chips: proof of work solved or not, a suspected duplicate (a link to the
 * event it may repeat), the links counted in its description. Shared by the queue and the detail.
 */
export function SubmissionChecks({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  const { verified, duplicate_of, links } = record.checks;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Chip
        size="small"
        sx={{ bgcolor: verified ? COLOURS.verified : COLOURS.unverified, color: '#fff' }}
        label={translate(verified ? 'cal.submissions.verified' : 'cal.submissions.unverified')}
        title={translate('cal.submissions.verified_help')}
      />
      {duplicate_of !== null && (
        <Chip
          size="small"
          sx={{ bgcolor: COLOURS.duplicate, color: '#fff', '&:hover': { bgcolor: COLOURS.duplicateHover } }}
          label={translate('cal.submissions.duplicate')}
          title={translate('cal.submissions.duplicate_help', { id: duplicate_of })}
          component={Link}
          to={`/events/${duplicate_of}`}
          clickable
          // Inside a clickable row: the chip opens the other event, not this submission.
          onClick={(e: { stopPropagation(): void }) => e.stopPropagation()}
        />
      )}
      {links > 0 && (
        <Chip size="small" variant="outlined" label={translate('cal.submissions.links', { smart_count: links })} />
      )}
    </Stack>
  );
}
