package io.jobfoundry.jobs.model;

/**
 * The caller's token is confined to other types ({@link TypeScope}); nothing was changed or read.
 * The same answer whether or not the job or type exists, so a confined token learns nothing of
 * the types outside its scope.
 */
public final class TypeForbiddenException extends JobException {

    public TypeForbiddenException(String type) {
        super("this token may not use this type", type, null);
    }
}
