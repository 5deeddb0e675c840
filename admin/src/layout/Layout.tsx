import type { ReactNode } from 'react';
import { AppBar, Layout as RaLayout, Menu, TitlePortal, usePermissions, useTranslate } from 'react-admin';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import SettingsIcon from '@mui/icons-material/Settings';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { can } from '../api/permissions';
import type { Role } from '../api/session';

/** The menu: the resources the role may open, the calendar beside the events, then settings and profile. */
function AdminMenu() {
  const translate = useTranslate();
  const { permissions } = usePermissions<Role>();
  return (
    <Menu>
      <Menu.ResourceItem name="events" />
      {can(permissions, 'edit_posts') && (
        <Menu.Item to="/calendar" primaryText={translate('cal.menu.calendar')} leftIcon={<CalendarMonthIcon />} />
      )}
      <Menu.ResourceItem name="venues" />
      <Menu.ResourceItem name="organizers" />
      <Menu.ResourceItem name="categories" />
      <Menu.ResourceItem name="tags" />
      <Menu.ResourceItem name="users" />
      <Menu.ResourceItem name="webhooks" />
      <Menu.ResourceItem name="imports" />
      {can(permissions, 'manage_options') && (
        <Menu.Item to="/settings" primaryText={translate('cal.menu.settings')} leftIcon={<SettingsIcon />} />
      )}
      <Menu.Item to="/profile" primaryText={translate('cal.menu.profile')} leftIcon={<AccountCircleIcon />} />
    </Menu>
  );
}

/** Each screen's title is the page's one level-one heading (react-admin's is a plain span). */
function AdminAppBar() {
  return (
    <AppBar>
      <TitlePortal component="h1" />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout menu={AdminMenu} appBar={AdminAppBar}>
      {children}
    </RaLayout>
  );
}
