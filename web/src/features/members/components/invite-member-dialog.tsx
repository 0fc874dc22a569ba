import { type InviteMemberRequest, inviteMemberRequestSchema, INVITATION_TTL_HOURS, ROLE_LABELS, type Role } from "#contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { Copy, UserPlus } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import { FormField, fieldErrorId } from "@/components/form-field";
import { PermissionTooltip } from "@/components/permission-tooltip";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { toastError, toastSuccess } from "@/components/ui/use-toast";
import { errorMessageFrom } from "@/lib/api-client";
import { usePermission } from "@/lib/permissions";
import { useInviteMember } from "../api/members-requests";
import { grantableRoles } from "../lib/member-rules";

type InviteForm = z.input<typeof inviteMemberRequestSchema>;

/** The sentence beside a link that could not be e-mailed. */
export const INVITE_LINK_NOTE = `This link works once and expires in ${INVITATION_TTL_HOURS} hours. Send it to the new member yourself.`;

/**
 * "Invite member" (issue 16): email and role (only the roles `myRole` may grant), validated by the
 * contract's schema. On success a toast; when the server could not e-mail the link (no SMTP) the
 * dialog shows it with a Copy button instead. Server errors show under the form with the reason.
 * Test ids: `button-invite-member`, `input-invite-email`, `select-invite-role`, `button-send-invite`, `text-invite-url`, `button-copy-invite-url`.
 */
export function InviteMemberDialog({ myRole }: { myRole: Role }) {
  const manage = usePermission("members.manage");
  const [open, setOpen] = useState(false);
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);
  const invite = useInviteMember();
  const roles = grantableRoles(myRole);
  const form = useForm<InviteForm, unknown, InviteMemberRequest>({
    resolver: zodResolver(inviteMemberRequestSchema),
    defaultValues: { email: "", role: "viewer" },
  });
  const errors = form.formState.errors;

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      form.reset();
      setInviteUrl(null);
      invite.reset();
    }
  };

  const onSubmit = form.handleSubmit((body) =>
    invite.mutate(body, {
      onSuccess: (answer) => {
        if (answer.emailSent || !answer.inviteUrl) onOpenChange(false);
        else setInviteUrl(answer.inviteUrl);
      },
    }),
  );

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toastSuccess("Invitation link copied");
    } catch {
      toastError("Could not copy the link; select it and copy it yourself.");
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <PermissionTooltip reason={manage.reason}>
        <DialogTrigger asChild>
          <Button size="sm" disabled={!manage.allowed} data-testid="button-invite-member">
            <UserPlus />
            Invite member
          </Button>
        </DialogTrigger>
      </PermissionTooltip>
      <DialogContent data-testid="dialog-invite-member">
        <DialogHeader>
          <DialogTitle>Invite member</DialogTitle>
          <DialogDescription>They receive a link to join this organisation with the role you choose.</DialogDescription>
        </DialogHeader>
        {inviteUrl ? (
          <div className="flex flex-col gap-3">
            <p className="text-sm">{INVITE_LINK_NOTE}</p>
            <div className="flex gap-2">
              <Input readOnly value={inviteUrl} aria-label="Invitation link" className="font-mono text-xs" data-testid="text-invite-url" onFocus={(e) => e.currentTarget.select()} />
              <Button type="button" variant="outline" onClick={() => void copy(inviteUrl)} data-testid="button-copy-invite-url">
                <Copy />
                Copy
              </Button>
            </div>
            <DialogFooter>
              <Button type="button" onClick={() => onOpenChange(false)} data-testid="button-close-invite">
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
            <FormField id="invite-email" label="Email" error={errors.email?.message}>
              <Input
                id="invite-email"
                type="email"
                autoComplete="off"
                placeholder="colleague@example.com"
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? fieldErrorId("invite-email") : undefined}
                data-testid="input-invite-email"
                {...form.register("email")}
              />
            </FormField>
            <FormField id="invite-role" label="Role" error={errors.role?.message}>
              <Controller
                control={form.control}
                name="role"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="invite-role" data-testid="select-invite-role">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {roles.map((role) => (
                        <SelectItem key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            {invite.isError ? (
              <p role="alert" className="text-sm text-destructive" data-testid="error-invite">
                {errorMessageFrom(invite.error, "Failed to send the invitation.")}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={invite.isPending} data-testid="button-send-invite">
                {invite.isPending ? "Sending..." : "Send invitation"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
