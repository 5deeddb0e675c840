import { lazy } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { createBrowserRouter, Route, RouterProvider } from 'react-router-dom';
import EventIcon from '@mui/icons-material/Event';
import PlaceIcon from '@mui/icons-material/Place';
import GroupsIcon from '@mui/icons-material/Groups';
import CategoryIcon from '@mui/icons-material/Category';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import PersonIcon from '@mui/icons-material/Person';
import WebhookIcon from '@mui/icons-material/Webhook';
import CloudDownloadIcon from '@mui/icons-material/CloudDownload';
import InboxIcon from '@mui/icons-material/Inbox';
import { dataProvider } from './api/dataProvider';
import { authProvider } from './api/authProvider';
import { i18nProvider } from './i18n/i18nProvider';
import { Layout } from './layout/Layout';
import { LoginPage } from './layout/LoginPage';
import { StartingPage } from './layout/NamedProgress';
import { theme } from './layout/theme';

// Every screen is its own chunk: the sign-in screen loads only what it shows.
const EventList = lazy(() => import('./events/EventList'));
const EventCreate = lazy(() => import('./events/EventCreate'));
const EventEdit = lazy(() => import('./events/EventEdit'));
const EventCalendar = lazy(() => import('./events/EventCalendar'));
const VenueList = lazy(() => import('./venues/VenueList'));
const VenueCreate = lazy(() => import('./venues/VenueCreate'));
const VenueEdit = lazy(() => import('./venues/VenueEdit'));
const OrganizerList = lazy(() => import('./organizers/OrganizerList'));
const OrganizerCreate = lazy(() => import('./organizers/OrganizerCreate'));
const OrganizerEdit = lazy(() => import('./organizers/OrganizerEdit'));
const CategoryList = lazy(() => import('./terms/CategoryList'));
const CategoryCreate = lazy(() => import('./terms/CategoryCreate'));
const CategoryEdit = lazy(() => import('./terms/CategoryEdit'));
const TagList = lazy(() => import('./terms/TagList'));
const TagCreate = lazy(() => import('./terms/TagCreate'));
const TagEdit = lazy(() => import('./terms/TagEdit'));
const UserList = lazy(() => import('./users/UserList'));
const UserCreate = lazy(() => import('./users/UserCreate'));
const UserEdit = lazy(() => import('./users/UserEdit'));
const WebhookList = lazy(() => import('./webhooks/WebhookList'));
const WebhookCreate = lazy(() => import('./webhooks/WebhookCreate'));
const WebhookEdit = lazy(() => import('./webhooks/WebhookEdit'));
const ImportList = lazy(() => import('./imports/ImportList'));
const ImportCreate = lazy(() => import('./imports/ImportCreate'));
const ImportShow = lazy(() => import('./imports/ImportShow'));
const SubmissionList = lazy(() => import('./submissions/SubmissionList'));
const SubmissionShow = lazy(() => import('./submissions/SubmissionShow'));
const SettingsPage = lazy(() => import('./settings/SettingsPage'));
const ProfilePage = lazy(() => import('./users/ProfilePage'));

function AdminApp() {
  return (
    <Admin
      title="Calendar"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      layout={Layout}
      loginPage={LoginPage}
      loading={StartingPage}
      theme={theme}
      requireAuth
      disableTelemetry
    >
      <Resource
        name="events"
        icon={EventIcon}
        list={EventList}
        create={EventCreate}
        edit={EventEdit}
        recordRepresentation="title"
      />
      <Resource
        name="venues"
        icon={PlaceIcon}
        list={VenueList}
        create={VenueCreate}
        edit={VenueEdit}
        recordRepresentation="venue"
      />
      <Resource
        name="organizers"
        icon={GroupsIcon}
        list={OrganizerList}
        create={OrganizerCreate}
        edit={OrganizerEdit}
        recordRepresentation="organizer"
      />
      <Resource
        name="categories"
        icon={CategoryIcon}
        list={CategoryList}
        create={CategoryCreate}
        edit={CategoryEdit}
        recordRepresentation="name"
      />
      <Resource
        name="tags"
        icon={LocalOfferIcon}
        list={TagList}
        create={TagCreate}
        edit={TagEdit}
        recordRepresentation="name"
      />
      <Resource
        name="users"
        icon={PersonIcon}
        list={UserList}
        create={UserCreate}
        edit={UserEdit}
        recordRepresentation="username"
      />
      <Resource name="webhooks" icon={WebhookIcon} list={WebhookList} create={WebhookCreate} edit={WebhookEdit} />
      <Resource name="imports" icon={CloudDownloadIcon} list={ImportList} create={ImportCreate} show={ImportShow} />
      <Resource name="submissions" icon={InboxIcon} list={SubmissionList} show={SubmissionShow} />
      <CustomRoutes>
        <Route path="/calendar" element={<EventCalendar />} />
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/profile" element={<ProfilePage />} />
      </CustomRoutes>
    </Admin>
  );
}

/**
 * Real paths under /admin/ (the server answers every one of them with the application), not
 * react-admin's default `#/` addresses: a link to /admin/events/12 can be shared and bookmarked.
 * A data router, because react-admin's "unsaved changes" warning blocks navigation through it.
 */
const router = createBrowserRouter([{ path: '*', element: <AdminApp /> }], { basename: '/admin' });

export function App() {
  return <RouterProvider router={router} />;
}
